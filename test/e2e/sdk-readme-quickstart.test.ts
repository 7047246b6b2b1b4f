import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from './process';
import { readmeBlocks, readmeService } from './readme-runner';

/*
 * sdk/README.md's quick start and its hooks script, run verbatim against a started service: each
 * `js` block saved as the file it names, then its `sh` blocks in order.
 */

const SCRIPT = join(REPO_ROOT, 'quickstart.mjs');
const HOOKS_SCRIPT = join(REPO_ROOT, 'hooks.mjs');
const started = readmeService(() => {
  rmSync(SCRIPT, { force: true });
  rmSync(HOOKS_SCRIPT, { force: true });
});

test('the SDK quick start runs verbatim against a started service', (t) => {
  const sh = readmeBlocks('sdk/README.md', 'quickstart');
  const js = readmeBlocks('sdk/README.md', 'quickstart', 'js');
  t.true(sh.includes('node quickstart.mjs') && js.includes("from '@payments/sdk'"), 'the quick start was found');
  const { localize, run: runScript } = started();
  writeFileSync(SCRIPT, localize(js));
  const run = runScript(sh);
  t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const out = run.stdout;
  t.regex(out, /^created pi_\w+ created http:\/\/\S+\/c\/[A-Za-z0-9_-]+$/m);
  t.regex(out, /^attempt pending qr_code$/m);
  t.regex(out, /^paid (succeeded|channel_settled) fee \d+ THB$/m);
  // The simulated channel reports the refund on the worker's next tick, which may come before the answer.
  t.regex(out, /^refund (pending|succeeded) 2345 THB refunded 2345$/m);
  t.regex(out, /^event payment_intent\.succeeded true$/m);
  t.regex(out, /^verified true$/m);
  t.regex(out, /^not found resource_not_found 404 \S+$/m);
});

test('the hooks script runs verbatim after the quick start: hooks on every try, lastResponse, rawRequest and an aborted call', (t) => {
  // The quick start's key, made the way it makes it.
  const exportKey = readmeBlocks('sdk/README.md', 'quickstart')
    .split('\n')
    .filter((line) => line.startsWith('export PAYMENTS_KEY='))
    .join('\n');
  const sh = readmeBlocks('sdk/README.md', 'hooks');
  const js = readmeBlocks('sdk/README.md', 'hooks', 'js');
  t.true(exportKey !== '' && sh.includes('node hooks.mjs') && js.includes('rawRequest'), 'the hooks script was found');
  const { localize, run: runScript } = started();
  writeFileSync(HOOKS_SCRIPT, localize(js));
  const run = runScript(`${exportKey}\n${sh}`);
  t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const out = run.stdout;
  t.regex(out, /^try GET \/v1\/balance 200 attempt 1 true req_\S+$/m);
  t.regex(out, /^lastResponse 200 true$/m);
  t.regex(out, /^try GET \/v1\/webhook_public_keys 200 attempt 1 true req_\S+$/m);
  t.regex(out, /^raw list true false$/m);
  t.regex(out, /^try GET \/v1\/balance request_aborted attempt 1 true undefined$/m);
  t.regex(out, /^aborted request_aborted$/m);
});
