import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';

/*
 * Restricted keys (`rk_test_…`, `rk_live_…`) are keys like any other to the CLI: login stores them
 * (a 403 `insufficient_permissions` of its check still says the key is known), and commands run
 * with them, the API's refusal reported as any 403. Against a stand-in API on a local port.
 */

const MAIN = join(__dirname, '..', 'src', 'main.js');
const RESTRICTED_TEST = 'rk_test_abcdefgh12345678ABCDEFGH';
const RESTRICTED_LIVE = 'rk_live_abcdefgh12345678ABCDEFGH';

let server: Server;
let base: string;
const seen: string[] = [];

test.before(async () => {
  server = createServer((request, response) => {
    const key = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    seen.push(`${request.method ?? ''} ${request.url ?? ''} ${key.slice(0, 8)}`);
    const known = key === RESTRICTED_TEST || key === RESTRICTED_LIVE;
    const [status, body] = known
      ? [
          403,
          { error: { code: 'insufficient_permissions', message: 'This key lacks the permission balance:read.', param: 'balance:read', request_id: 'req_1' } },
        ]
      : [401, { error: { code: 'authentication_required', message: 'The API key is not valid.', request_id: 'req_2' } }];
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_x' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
test.after.always(() => new Promise<void>((resolve) => server?.close(() => resolve())));

function run(args: string[], configDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH, PAYMENTS_CONFIG_DIR: configDir, PAYMENTS_API_BASE: base } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end();
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const freshConfig = () => join(mkdtempSync(join(tmpdir(), 'payments-rk-')), 'config');

test.serial(
  'login takes a restricted key of either mode: its check answered insufficient_permissions, the key is known; an unknown key is still refused',
  async (t) => {
    for (const [key, mode] of [
      [RESTRICTED_TEST, 'test'],
      [RESTRICTED_LIVE, 'live'],
    ] as const) {
      const configDir = freshConfig();
      const login = await run(['login', '--api-key', key, '--json'], configDir);
      t.is(login.code, 0, login.stderr);
      t.like(JSON.parse(login.stdout), { mode, key_prefix: `${key.slice(0, 16)}…` });
      t.false(login.stdout.includes(key) || login.stderr.includes(key), 'the key is never printed');
      t.regex(readFileSync(join(configDir, 'config.json'), 'utf8'), new RegExp(`"api_key": "${key}"`));
    }
    const refused = await run(['login', '--api-key', 'rk_test_unknownunknown12345678'], freshConfig());
    t.is(refused.code, 3);
    t.regex(refused.stderr, /authentication_required/);
  },
);

test.serial('a command runs with a restricted key; what it may not reach is the API’s 403, exit 3, naming the permission', async (t) => {
  const balance = await run(['balance', '--api-key', RESTRICTED_TEST], freshConfig());
  t.is(balance.code, 3);
  t.is(balance.stderr, 'Error: This key lacks the permission balance:read. (code insufficient_permissions, status 403, param balance:read, request req_1)\n');
  t.true(seen.includes(`GET /v1/balance ${RESTRICTED_TEST.slice(0, 8)}`), 'the request was sent with the key');
  const wrong = await run(['balance', '--api-key', 'pk_test_abcdefgh12345678'], freshConfig());
  t.is(wrong.code, 3);
  t.is(wrong.stderr, 'Error: The API key in use does not start with sk_test_, sk_live_, rk_test_ or rk_live_ (it is not shown).\n');
});
