import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

/*
 * sdk/README.md's quick start, run verbatim against a started service: its `js` block saved as
 * the file it names, then its `sh` blocks in order.
 */

const SCRIPT = join(REPO_ROOT, 'quickstart.mjs');
let environment: ServiceEnvironment;
let service: RunningService;

test.before(async () => {
  environment = await serviceEnvironment();
  service = await startService(environment.env);
});
test.after.always(async () => {
  await service?.stop();
  await environment?.cleanup();
  rmSync(SCRIPT, { force: true });
});

function quickstart(): { sh: string; js: string } {
  const readme = readFileSync(join(REPO_ROOT, 'sdk', 'README.md'), 'utf8');
  const section = /<!-- quickstart:start -->([\s\S]*?)<!-- quickstart:end -->/.exec(readme)?.[1] ?? '';
  const blocks = (lang: string) => [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]).join('\n');
  return { sh: blocks('sh'), js: blocks('js') };
}

test('the SDK quick start runs verbatim against a started service', (t) => {
  const { sh, js } = quickstart();
  t.true(sh.includes('node quickstart.mjs') && js.includes("from '@payments/sdk'"), 'the quick start was found');
  // The one liberty taken, as for the root README: the service under test listens on a free port.
  writeFileSync(SCRIPT, js.replaceAll('http://localhost:4242', service.baseUrl));
  const run = spawnSync('bash', ['-euo', 'pipefail', '-c', sh.replaceAll('http://localhost:4242', service.baseUrl)], {
    cwd: REPO_ROOT,
    env: environment.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const out = run.stdout;
  t.regex(out, /^created pi_\w+ created http:\/\/\S+\/c\/[A-Za-z0-9_-]+$/m);
  t.regex(out, /^attempt pending qr_code$/m);
  t.regex(out, /^paid (succeeded|channel_settled) fee \d+ THB$/m);
  t.regex(out, /^event payment_intent\.succeeded true$/m);
  t.regex(out, /^verified true$/m);
  t.regex(out, /^not found resource_not_found 404 \S+$/m);
});
