import { existsSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import { objectAt, textAt } from '@payments/api/dist/test/helpers/json';
import { adminCli } from './helpers/admin-cli';
import { commandHelp, overviewHelp } from '@payments/cli/command-line';
import { ADMIN } from '../src/commands';

const { admin, database, remove } = adminCli('cli');
test.after.always(remove);

/** The first stderr line is the JSON error; the help for the right command line follows it. */
function usageError(t: ExecutionContext, result: ReturnType<typeof admin>, help: string): string {
  t.is(result.code, 2, result.stderr);
  t.is(result.stdout, '');
  const [first, ...rest] = result.stderr.split('\n');
  const error = objectAt(JSON.parse(first ?? ''), 'error');
  t.is(error.code, 'usage');
  t.is(rest.join('\n'), help);
  return textAt(error, 'message');
}

function helpOf(name: string): string {
  return commandHelp(
    ADMIN,
    ADMIN.commands.find((command) => command.name === name)!,
  );
}

test.serial('--help lists every command, from the same renderer as payments --help', (t) => {
  const result = admin('--help');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, overviewHelp(ADMIN));
  for (const command of ADMIN.commands) t.true(result.stdout.includes(`\n  ${command.name}  `), command.name);
  t.is(result.stderr, '');
});

test.serial("every command's --help renders its usage, options and example", (t) => {
  t.deepEqual(
    ADMIN.commands.map((command) => command.name),
    [
      'merchant create',
      'merchant open-live',
      'merchant close-live',
      'payments duplicates',
      'platform-keys rotate',
      'platform-keys list',
      'migrate',
      'ledger verify',
      'ledger rebuild-balances',
      'jobs failures',
      'jobs retry',
      'recon breaks',
      'recon run',
      'channel set',
      'channel show',
      'channel unset',
    ],
  );
  for (const command of ADMIN.commands) {
    const help = admin(...command.name.split(' '), '--help');
    t.is(help.code, 0, `${command.name}: ${help.stderr}`);
    t.is(help.stdout, commandHelp(ADMIN, command));
    t.true(help.stdout.startsWith(`npm run -s admin -- ${command.name}: ${command.summary}\n\nUsage: npm run -s admin -- ${command.name}`), command.name);
  }
  t.is(admin('help', 'ledger', 'verify').stdout, helpOf('ledger verify'));
  t.false(existsSync(database), 'help opens no database');
});

test.serial('a wrong command line exits 2 with a JSON usage error and the command help, before any database is opened', (t) => {
  t.regex(usageError(t, admin('ledger', 'verify', '--bogus'), helpOf('ledger verify')), /Unknown option '--bogus'/);
  t.is(usageError(t, admin('jobs', 'retry'), helpOf('jobs retry')), 'jobs retry takes <item_id>.');
  t.is(usageError(t, admin('merchant', 'open-live', 'mch_a', 'mch_b'), helpOf('merchant open-live')), 'merchant open-live takes <mch_id>.');
  t.is(usageError(t, admin('platform-keys', 'list', 'extra'), helpOf('platform-keys list')), 'platform-keys list takes no arguments.');
  t.false(existsSync(database));
});

test.serial('an unknown command, or none, exits 2 with a JSON usage error and the overview', (t) => {
  t.regex(usageError(t, admin('merchant', 'explode'), overviewHelp(ADMIN)), /Unknown command .*merchant explode/);
  t.regex(usageError(t, admin('nope'), overviewHelp(ADMIN)), /Unknown command "nope"/);
  t.is(usageError(t, admin(), overviewHelp(ADMIN)), 'No command given.');
  t.is(usageError(t, admin('merchant'), overviewHelp(ADMIN, 'merchant')), 'No command given.');
  t.false(existsSync(database));
});

test.serial("a value the command refuses is a usage error too, after the service's container is up", (t) => {
  t.is(usageError(t, admin('payments', 'duplicates', '--limit', '0'), helpOf('payments duplicates')), '--limit takes a whole number from 1 to 1000.');
  t.is(usageError(t, admin('merchant', 'create', '--name', 'Shop', '--email', 'a@example.com'), helpOf('merchant create')), '--password is required.');
});

test.serial('migrate brings a new database up to date and says so; run again, it finds nothing left', (t) => {
  for (let run = 0; run < 2; run += 1) {
    const result = admin('migrate');
    t.is(result.code, 0, result.stderr);
    t.deepEqual(JSON.parse(result.stdout), { migrations: 'ok', database: 'ok' });
  }
  t.true(existsSync(database));
});

test.serial('recon run reconciles every channel with a statement and exits 0 with no break; recon breaks lists none and refuses an unknown status', (t) => {
  const run = admin('recon', 'run');
  t.is(run.code, 0, run.stderr);
  t.deepEqual(JSON.parse(run.stdout), { breaks: [] });
  for (const status of [[], ['--status', 'all'], ['--status', 'cleared', '--mode', 'test', '--channel', 'simulator']]) {
    const listed = admin('recon', 'breaks', ...status);
    t.is(listed.code, 0, listed.stderr);
    t.deepEqual(JSON.parse(listed.stdout), { breaks: [] });
  }
  t.is(usageError(t, admin('recon', 'breaks', '--status', 'closed'), helpOf('recon breaks')), '--status takes open, waiting, cleared or all.');
  t.is(usageError(t, admin('recon', 'run', '--mode', 'prod'), helpOf('recon run')), '--mode takes test or live.');
});
