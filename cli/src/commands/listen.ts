import { AuthenticationError, EVENT_TYPES, PermissionError, type Payments } from '@payments/sdk';
import type { Command, Context } from '../command.js';
import { describeError, EXIT, UsageError } from '../exit-codes.js';
import { baseline, handled, pollEvents, type FollowState } from '../event-follower.js';
import { checkForwardUrl, deliveryLine, forwardEvent, standardWebhooksSecret, webhookSecret, type Signer } from '../forward.js';
import { DEFAULT_KEYS_PORT, generateListenKey, serveListenKey, type KeysServer } from '../listen-keys.js';
import { durationOption, ID, optionalInteger, optionalString, sleep } from '../values.js';
import { findEvent } from './events.js';

/**
 * `payments listen`: follows `GET /v1/events` from a cursor stored per profile and forwards each
 * new event, oldest first, signed as the service signs: v1 with the profile's local secret, v2
 * with a key made at start (its public half served on a local port in the shape of
 * `GET /v1/webhook_public_keys`), and the Standard Webhooks headers with both.
 *
 * Why a stored cursor and not "events since start": the list is the source of truth, so events
 * that happened while the laptop slept or listen was stopped are forwarded on the next poll.
 * The cursor moves past an event once its delivery was tried (whatever the receiver answered);
 * `payments events resend` re-delivers one.
 *
 * The API has no event stream, so listen polls; to keep an idle listen cheap it backs off (see
 * nextPollDelay) and is quick again as soon as events come.
 */
/** Each poll that finds nothing waits this much longer than the last, up to the idle maximum. */
export const BACKOFF_FACTOR = 1.5;

export const listenCommands: Command[] = [
  {
    name: 'listen',
    summary: 'Forward events to a local webhook receiver, signed like real deliveries.',
    options: {
      'forward-to': { type: 'string', description: 'Where to POST each event (required).', valueName: 'url' },
      events: { type: 'string', description: 'Only these types, comma separated; `payment_intent.*` matches a family.', valueName: 'types' },
      since: { type: 'string', description: 'Replay everything after this event (moves the stored cursor).', valueName: 'evt_id' },
      interval: { type: 'string', description: 'Time between polls while events come (default 1s).', valueName: 'duration' },
      'max-interval': { type: 'string', description: 'Longest time between polls when idle (default 5s).', valueName: 'duration' },
      'keys-port': {
        type: 'string',
        description: `Local port serving the v2 public key as GET /v1/webhook_public_keys (default ${DEFAULT_KEYS_PORT}).`,
        valueName: 'port',
      },
      'print-secret': { type: 'boolean', description: "Print this profile's signing secret on stdout and exit." },
    },
    examples: [
      'payments listen --forward-to http://localhost:3000/webhooks',
      'payments listen --forward-to http://localhost:3000/webhooks --events payment_intent.succeeded,dispute.*',
      'payments listen --forward-to http://localhost:3000/webhooks --since evt_ABC234',
    ],
    notes:
      'The first run starts at the newest event; later runs resume after the last event handled, so nothing is missed across restarts. ' +
      'Each event carries X-Webhook-Signature (t, v1 with the printed secret, v2 with a key made at start) and the Standard Webhooks headers, as real deliveries do. ' +
      'Verify v1 with the secret: payments.webhooks.constructEvent(rawBody, header, { secret }); ' +
      'v2 with a client of this mode whose baseUrl is the printed keys URL: constructEventAsync(rawBody, header) (the key server also answers GET /v1/events/{id} ' +
      'of the events forwarded, which the SDK reads to learn its merchant: a v2 signature must come with an event of its own merchant and mode); ' +
      'Standard Webhooks libraries with the printed whsec_ secret. ' +
      `Polls every --interval while events come; each poll that finds none waits ${BACKOFF_FACTOR}x longer, up to --max-interval. ` +
      'Ctrl-C exits 130 and SIGTERM 0, after the delivery in flight.',
    handlesSignals: true,
    runsUntilStopped: true,
    async run(context) {
      const secret = webhookSecret(context.store, context.profileName);
      if (context.values['print-secret']) {
        context.out.data({ secret, standard_webhooks_secret: standardWebhooksSecret(secret) }, () => secret);
        return EXIT.ok;
      }
      const url = checkForwardUrl(optionalString(context.values, 'forward-to'));
      const matches = eventFilter(optionalString(context.values, 'events'));
      const intervals = { min: durationOption(context.values, 'interval', '1s'), max: durationOption(context.values, 'max-interval', '5s') };
      if (intervals.max < intervals.min) throw new UsageError('--max-interval must be at least --interval.');
      const keysPort = optionalInteger(context.values, 'keys-port', 0);
      if (keysPort !== undefined && keysPort > 65535) throw new UsageError('--keys-port must be a port number, 0 to 65535 (0: any free port).');
      const client = context.client();
      const owner = context.keyPrefix();
      const save = (state: FollowState) => context.store.saveListenState(context.profileName, { cursor: state.cursor, key_prefix: owner, seen: state.seen });

      let state = await startingState(context, client, owner);
      save(state);
      const key = generateListenKey();
      const keys = await serveListenKey(key, keysPort, (message) => context.out.log(message));
      try {
        context.out.log(
          `Ready. Forwarding ${context.values.events ? `${String(context.values.events)} events` : 'events'} to ${url} (profile ${context.profileName}).`,
        );
        context.out.log(`Webhook signing secret: ${secret}`);
        context.out.log(`Standard Webhooks secret: ${standardWebhooksSecret(secret)}`);
        context.out.log(`v2 key ${key.id}: ${key.publicKey}, served at ${keys.baseUrl}/v1/webhook_public_keys`);
        context.out.log(state.cursor ? `Resuming after ${state.cursor}. Ctrl-C to stop.` : 'Forwarding every event from the first. Ctrl-C to stop.');
        state = await follow(context, { client, state, save, matches, url, signer: { secret, key }, keys, intervals });
      } finally {
        await keys.close();
      }
      context.out.log(state.cursor ? `Stopped. The next listen resumes after ${state.cursor}.` : 'Stopped.');
      return EXIT.ok;
    },
  },
];

/**
 * The wait before the next poll: the shortest while events come, growing by BACKOFF_FACTOR per
 * poll that found none, up to `max`. Idle, a listen asks about every `max` (5 s by default rather
 * than every second); the first event after a pause is seen within `max`, the next ones quickly.
 */
export function nextPollDelay(previous: number | undefined, foundEvents: boolean, intervals: { min: number; max: number }): number {
  if (foundEvents || previous === undefined) return intervals.min;
  return Math.min(intervals.max, Math.round(previous * BACKOFF_FACTOR));
}

interface Following {
  client: Payments;
  state: FollowState;
  save: (state: FollowState) => void;
  matches: (type: string) => boolean;
  url: string;
  signer: Signer;
  /** Serves each forwarded event back, for a v2 verifier pointed at it to learn its merchant. */
  keys: KeysServer;
  intervals: { min: number; max: number };
}

/** Polls and forwards until the command is stopped; the state it got to. */
async function follow(context: Context, { client, save, matches, url, signer, keys, intervals, ...start }: Following): Promise<FollowState> {
  let state = start.state;
  let failures = 0;
  let delay: number | undefined;
  while (!context.signal.aborted) {
    let found = false;
    try {
      for (const pending of await pollEvents(client.events.list({ limit: 100 }), state)) {
        found = true;
        if (matches(pending.event.type)) {
          keys.remember(pending.event);
          const delivery = await forwardEvent(client, signer, pending.event, url);
          context.out.line(delivery, deliveryLine(delivery));
        }
        // Saved after each event: a crash re-forwards at most the one in flight (receivers de-duplicate on id).
        state = handled(state, pending);
        save(state);
        if (context.signal.aborted) break;
      }
      failures = 0;
    } catch (error) {
      if (error instanceof AuthenticationError || error instanceof PermissionError) throw error;
      // The service may be restarting: say so once per failure streak and keep polling.
      failures += 1;
      if (failures === 1) context.out.log(`${describeError(error)}; retrying.`);
    }
    delay = nextPollDelay(delay, found, intervals);
    await sleep(failures ? Math.min(intervals.min * 2 ** failures, 30_000) : delay, context.signal);
  }
  return state;
}

async function startingState(context: Context, client: Payments, owner: string): Promise<FollowState> {
  const since = optionalString(context.values, 'since');
  if (since !== undefined) {
    if (!ID.event.test(since)) throw new UsageError(`--since takes an event id (evt_…), not ${JSON.stringify(since)}.`);
    await findEvent(context, since);
    return { cursor: since, seen: await baseline(client.events.list({ limit: 100 }), since) };
  }
  const stored = context.store.listenState(context.profileName);
  // A cursor of another key (the profile was logged in again) means nothing here: start afresh.
  if (stored.cursor && stored.key_prefix === owner) return { cursor: stored.cursor, seen: Array.isArray(stored.seen) ? stored.seen : [stored.cursor] };
  // First run: begin at the newest event, as a new webhook endpoint would.
  const newest = (await client.events.list({ limit: 1 })).data[0]?.id;
  if (!newest) return { seen: [] };
  return { cursor: newest, seen: await baseline(client.events.list({ limit: 100 }), newest) };
}

function eventFilter(list: string | undefined): (type: string) => boolean {
  if (list === undefined) return () => true;
  const patterns = list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const pattern of patterns) {
    const known = pattern.endsWith('.*')
      ? EVENT_TYPES.some((type) => type.startsWith(pattern.slice(0, -1)))
      : (EVENT_TYPES as readonly string[]).includes(pattern);
    if (!known) throw new UsageError(`Unknown event type ${JSON.stringify(pattern)}; known: ${EVENT_TYPES.join(', ')}.`);
  }
  return (type) => patterns.some((pattern) => (pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern));
}
