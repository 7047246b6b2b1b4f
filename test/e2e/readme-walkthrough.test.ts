import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from './process';
import { readmeBlocks, readmeService } from './readme-runner';

const started = readmeService(() => {
  for (const file of ['intent.json', 'cookies.txt', 'settlement.json', 'refund.json']) rmSync(join(REPO_ROOT, file), { force: true });
});

test('the README walk-through runs verbatim against a started service', (t) => {
  const script = readmeBlocks('README.md', 'walkthrough');
  t.true(script.includes('curl'), 'the walk-through was found');
  const { environment, run: runScript } = started();
  const run = runScript(script);
  t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const out = run.stdout;
  t.regex(out, /"object":"payment_intent"[^\n]*"status":"created"[^\n]*"checkout_url":"http[^"]+\/c\//);
  t.regex(out, /Idempotent-Replayed: true/i);
  t.regex(out, /"status":"canceled"/);
  t.regex(out, /"type":"payment_intent\.canceled"/);
  t.regex(out, /"object":"payment_attempt"[^\n]*"status":"pending"[^\n]*"next_action":\{"type":"qr_code"/);
  // The answer is the intent as the callback left it; on a busy machine the next tick may have settled it already.
  t.regex(out, /"status":"(succeeded|channel_settled)"[^\n]*"fee":\{"amount":\d+,"currency":"THB"\}/);
  t.regex(out, /"status":"channel_settled"/);
  t.regex(out, /"type":"payment_intent\.channel_settled"/);
  t.regex(out, /"object":"dashboard_user"[^\n]*"role":"owner"/);
  t.regex(out, /"secret":"sk_test_[0-9A-Za-z]+"/);
  t.regex(out, /"object":"webhook_endpoint"[^\n]*"secret":"[0-9a-f]{64}"/);
  t.regex(out, /\n204\n/);
  t.notRegex(out, /"error"/);

  // The money: net in pending once paid, available once released, then paid out and back to zero.
  const net = Number(/"status":"(?:succeeded|channel_settled)"[^\n]*"net":\{"amount":(\d+),"currency":"THB"\}/.exec(out)?.[1]);
  t.true(net > 0 && net < 25_000);
  const balances = [
    ...out.matchAll(
      /\{"object":"balance","available":\[\{"amount":(-?\d+),"currency":"THB"\}\],"pending":\[\{"amount":(-?\d+),"currency":"THB"\}\],"dispute_hold":\[\{"amount":0,"currency":"THB"\}\],"next_settlement":\[[^\]]*\]\}/g,
    ),
  ].map((match) => [Number(match[1]), Number(match[2])]);
  // A refund of 5000 of the 25000 takes the same fifth of the net (rounded half to even; a fifth is never a half).
  const share = Math.round(net / 5);
  t.deepEqual(
    balances,
    [
      [0, net],
      [net, 0],
      [net - share, 0],
      [0, 0],
    ],
    'available and pending after payment, after release, after a partial refund, after the settlement',
  );
  t.regex(
    out,
    /\{"id":"re_[A-Z2-7]+","object":"refund","mode":"test","payment_intent":"pi_\w+","amount":5000,"currency":"THB","status":"pending","reason":"requested_by_customer"/,
  );
  t.regex(out, /"object":"refund"[^\n]*"status":"succeeded"[^\n]*"succeeded_at":"/);
  t.regex(out, /"object":"payment_intent"[^\n]*"amount_refunded":5000/);
  t.regex(out, new RegExp(`"object":"settlement","mode":"test","status":"paid","amount":\\{"amount":${net - share},"currency":"THB"\\},"payments":1`));
  t.regex(out, new RegExp(`"type":"settlement\\.paid"[^\\n]*"amount":\\{"amount":${net - share},"currency":"THB"\\}`));

  // The operator's check of the whole ledger the walk-through wrote.
  const verify = spawnSync('node', ['apps/admin/dist/src/main.js', 'ledger', 'verify'], {
    cwd: REPO_ROOT,
    env: environment.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(verify.status, 0, `${verify.stdout}\n${verify.stderr}`);
  t.like(JSON.parse(verify.stdout), { ledger: { ok: true, breaks: [] } });
});
