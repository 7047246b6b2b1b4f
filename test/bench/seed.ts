import { jsonAt } from '../fixtures';
import { createBody, uniqueToken } from './scenarios';

/** Per-request cap, so a hung server fails the bench instead of stalling it. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Seeding runs this many creates at a time: quick, yet not itself a load test. */
const SEED_CONCURRENCY = 8;

interface Created {
  readonly id: string;
  readonly replayed: boolean;
}

/** One create through the service's HTTP API, as a merchant's client would send it. */
async function createIntent(baseUrl: string, testKey: string, key: string, body: string): Promise<Created> {
  const response = await fetch(`${baseUrl}/v1/payment_intents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json', 'idempotency-key': key },
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`Seeding: POST /v1/payment_intents answered ${response.status}: ${text.slice(0, 500)}`);
  const id = jsonAt(JSON.parse(text), 'id');
  if (typeof id !== 'string') throw new Error(`Seeding: the create answer has no id: ${text.slice(0, 500)}`);
  return { id, replayed: response.headers.get('idempotent-replayed') === 'true' };
}

/** Creates `count` intents (a bounded number of batches) and returns their ids. */
export async function seedIntents(baseUrl: string, testKey: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += SEED_CONCURRENCY) {
    const batch = Math.min(SEED_CONCURRENCY, count - start);
    const created = await Promise.all(
      Array.from({ length: batch }, () => createIntent(baseUrl, testKey, uniqueToken('seed-key'), createBody(uniqueToken('seed-order')))),
    );
    ids.push(...created.map((intent) => intent.id));
  }
  return ids;
}

/** The key and body of a create the replay scenario repeats; the same on both sides. */
export function replayRequest(): { key: string; body: string } {
  return { key: uniqueToken('replay-key'), body: createBody(uniqueToken('replay-order')) };
}

/**
 * Makes the one create the replay scenario repeats, then repeats it once to check the server
 * really answers it as a replay (201 with Idempotent-Replayed), not as a new create.
 */
export async function prepareReplay(baseUrl: string, testKey: string, replay: { readonly key: string; readonly body: string }): Promise<void> {
  const first = await createIntent(baseUrl, testKey, replay.key, replay.body);
  const again = await createIntent(baseUrl, testKey, replay.key, replay.body);
  if (first.replayed || !again.replayed || again.id !== first.id) {
    throw new Error(`The replay set-up did not replay: first ${JSON.stringify(first)}, again ${JSON.stringify(again)}`);
  }
}
