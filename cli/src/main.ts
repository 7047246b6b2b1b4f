#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { Payments } from '@payments/sdk';
import type { Command, Context } from './command.js';
import { ConfigStore, configDir, DEFAULT_API_BASE, keyPrefix } from './config.js';
import { CliError, describeError, EXIT, exitCodeOf, UsageError } from './exit-codes.js';
import { commandHelp, GLOBAL_OPTIONS, overviewHelp } from './help.js';
import { Output } from './output.js';
import { COMMANDS } from './registry.js';

/** Runs one command line; resolves with the exit code (main() sets it; tests may call this). */
export async function run(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const wantsJson = argv.includes('--json');
  const out = new Output(wantsJson);
  try {
    return await dispatch(argv, env, out);
  } catch (error) {
    out.log(describeError(error));
    return exitCodeOf(error);
  }
}

async function dispatch(argv: string[], env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  // First pass, lenient: find the command words among the positionals.
  const loose = parseArgs({ args: argv, options: stripDescriptions(GLOBAL_OPTIONS), strict: false, allowPositionals: true });
  const words = loose.positionals;
  if (words[0] === 'help') return dispatch([...words.slice(1), '--help'], env, out);
  const command = findCommand(words);
  if (!command) {
    const group = words[0] && COMMANDS.some((c) => c.name.startsWith(`${words[0]} `)) ? words[0] : undefined;
    if (loose.values.help) {
      process.stdout.write(overviewHelp(COMMANDS, group));
      return EXIT.ok;
    }
    // No command, or a group without its subcommand: the overview, on stderr as for any usage error.
    if (words.length === 0 || (group && words.length === 1)) {
      process.stderr.write(overviewHelp(COMMANDS, group));
      return EXIT.usage;
    }
    if (group) throw new UsageError(`Unknown command "payments ${words.slice(0, 2).join(' ')}"; run payments ${group} --help.`);
    throw new UsageError(`Unknown command "${words[0]}"; run payments --help.`);
  }
  if (loose.values.help) {
    process.stdout.write(commandHelp(command));
    return EXIT.ok;
  }

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: stripDescriptions({ ...GLOBAL_OPTIONS, ...command.options }), strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '.') : String(error)} See payments ${command.name} --help.`);
  }
  const nameWords = command.name.split(' ').length;
  const positionals = parsed.positionals.slice(nameWords);
  const values = parsed.values as Context['values'];

  const store = new ConfigStore(configDir(env));
  const profileName = (values.profile as string | undefined) ?? env.PAYMENTS_PROFILE ?? 'default';
  const profile = store.profile(profileName);
  const apiBase = checkApiBase((values['api-base'] as string | undefined) ?? env.PAYMENTS_API_BASE ?? profile.api_base ?? DEFAULT_API_BASE);

  const controller = new AbortController();
  const onSignal = () => {
    // A second Ctrl-C, or one during a command that does not stop by itself, ends at once.
    if (controller.signal.aborted || !command.handlesSignals) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let client: Payments | undefined;
  const apiKeyInEffect = (): string => {
    const apiKey = (values['api-key'] as string | undefined) ?? env.PAYMENTS_API_KEY ?? profile.api_key;
    if (!apiKey) {
      throw new CliError(`No API key for profile ${profileName}: run payments login --api-key sk_test_…, or pass --api-key or PAYMENTS_API_KEY.`, EXIT.authentication);
    }
    if (!/^sk_(test|live)_/.test(apiKey)) throw new CliError('The API key in use does not start with sk_test_ or sk_live_ (it is not shown).', EXIT.authentication);
    return apiKey;
  };
  const context: Context = {
    values,
    positionals,
    out,
    store,
    profileName,
    env,
    apiBase,
    signal: controller.signal,
    keyPrefix: () => keyPrefix(apiKeyInEffect()),
    client() {
      if (client) return client;
      const apiKey = apiKeyInEffect();
      client = new Payments(apiKey, {
        baseUrl: apiBase,
        ...(values.verbose
          ? {
              onResponse: (info) =>
                out.log(`<- ${info.status} request ${info.requestId ?? '-'}${info.replayed ? ' (idempotent replay)' : ''}${info.attempts > 1 ? ` after ${info.attempts} tries` : ''}`),
            }
          : {}),
      });
      return client;
    },
  };
  try {
    return (await command.run(context)) ?? EXIT.ok;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The command whose words start the positionals; the longest match wins (`events list` over `events`). */
function findCommand(words: string[]): Command | undefined {
  return [...COMMANDS]
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)
    .find((command) => command.name.split(' ').every((word, index) => words[index] === word));
}

function checkApiBase(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value.replace(/\/+$/, '');
  } catch {
    // fall through to the usage error
  }
  throw new UsageError(`--api-base must be an http(s) URL, not ${JSON.stringify(value)}.`);
}

function stripDescriptions(options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>) {
  return Object.fromEntries(
    Object.entries(options).map(([name, spec]) => [name, { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) }]),
  ) as NonNullable<Parameters<typeof parseArgs>[0]>['options'];
}

if (require.main === module) {
  void run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
