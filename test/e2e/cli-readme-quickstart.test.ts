import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { readmeBlocks, readmeService } from './readme-runner';

/* cli/README.md's quick start, its `sh` blocks run verbatim in order against a started service. */

const started = readmeService();

test('the CLI quick start runs verbatim against a started service', (t) => {
  const script = readmeBlocks('cli/README.md', 'quickstart');
  t.true(script.includes('npm run -s payments -- login --stdin'), 'the quick start was found');
  // One more liberty: the profile goes to a scratch config dir instead of the developer's own.
  const configDir = join(mkdtempSync(join(tmpdir(), 'payments-cli-readme-')), 'payments');
  const { environment, run: runScript } = started();
  const run = runScript(script, { env: { ...environment.env, PAYMENTS_CONFIG_DIR: configDir }, timeoutMs: 120_000 });
  t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const out = run.stdout;
  const { baseUrl } = started().service;
  t.regex(out, /^profile +default$/m);
  t.regex(out, /^key_prefix +sk_test_\w{8}…$/m);
  // profiles list: the profile in effect, its key masked.
  t.regex(out, new RegExp(`^ +PROFILE +MODE +KEY +API_BASE\n\\* +default +test +sk_test_\\w{8}… +${baseUrl.replaceAll('.', '\\.')}$`, 'm'));
  t.regex(out, /^object +payment_attempt$/m);
  t.regex(out, /^next_action +\{"type":"qr_code"/m);
  t.regex(out, /^status +succeeded$/m);
  t.regex(out, /^status +channel_settled$/m);
  t.regex(out, /^object +refund\nmode +test\npayment_intent +pi_\w+\namount +5000\ncurrency +THB\nstatus +succeeded$/m);
  t.regex(out, /^ID +STATUS +PAYMENT_INTENT +AMOUNT +CURRENCY +REASON +CREATED\nre_\w+ +succeeded +pi_\w+ +5000 +THB +requested_by_customer /m);
  t.regex(out, /^refund +refund +re_\w+ +failed$/m);
  t.regex(out, /^CURRENCY +AVAILABLE +PENDING +DISPUTE_HOLD\nTHB +0 +\d+ +0$/m);
  t.regex(out, /^evt_\w+ +payment_intent\.channel_settled +pi_\w+ +channel_settled /m);
  t.regex(out, /^settlement +settlement +st_\w+ +paid$/m);
  t.regex(out, /^dispute +dispute +dp_\w+ +lost$/m);
  // --override: the intent of that run has the amount asked for; --all lists it among every intent (the first, and one per trigger).
  t.regex(out, /^payment_intent +payment_intent +pi_\w+ +(succeeded|channel_settled)$/m);
  const all = /^ID +STATUS +AMOUNT +CURRENCY +ORDER +CREATED\n((?:pi_\w+ [^\n]+\n)+)/m.exec(out.slice(out.lastIndexOf('ID  ')))?.[1] ?? '';
  t.true(all.split('\n').filter(Boolean).length >= 5, all);
  t.regex(all, /^pi_\w+ +\w+ +4242 +THB /m);
  t.regex(run.stderr, /^Error: [^\n]+ \(code resource_not_found, status 404, param id, request req_\w+\)$/m);
  // --json: the API's error envelope (the README moves it to stdout).
  t.regex(out, /^exit code 5\n\{"error":\{"code":"resource_not_found","message":"[^"\n]+","param":"id","request_id":"req_\w+"\}\}\nexit code 5$/m);
  t.regex(out, /^complete -o default -F _payments_complete payments$/m);
  t.regex(run.stderr, /^Logged out: profile default no longer holds sk_test_\w{8}…\.$/m);
  t.is(statSync(join(configDir, 'config.json')).mode & 0o777, 0o600);
  t.false(/sk_test_\w{9,}/.test(out + run.stderr), 'no API key in the output');
});
