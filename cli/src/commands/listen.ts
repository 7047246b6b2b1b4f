import { AuthenticationError, EVENT_TYPES, PermissionError, type Payments } from '@payments/sdk';
import type { Command, Context } from '../command.js';
import { describeError, EXIT, UsageError } from '../exit-codes.js';
import { baseline, handled, pollEvents, type FollowState } from '../event-follower.js';
import { checkForwardUrl, deliveryLine, forwardEvent, webhookSecret } from '../forward.js';
import { durationOption, ID, optionalString, sleep } from '../values.js';
import { findEvent } from './events.js';

/**
 * `payments listen`: follows `GET /v1/events` from a cursor stored per profile and forwards each
 * new event, oldest first, signed with the profile's local secret.
 *
 * Why a stored cursor and not "events since start": the list is the source of truth, so events
 * that happened while the laptop slept or listen was stopped are forwarded on the next poll.
 * The cursor moves past an event once its delivery was tried (whatever the receiver answered);
 * `payments events resend` re-delivers one.
 */
export const listenCommands: Command[] = [
  {
    name: 'listen',
    summary: 'Forward events to a local webhook receiver, signed like real deliveries.',
    options: {
      'forward-to': { type: 'string', description: 'Where to POST each event (required).', valueName: 'url' },
      events: { type: 'string', description: 'Only these types, comma separated; `payment_intent.*` matches a family.', valueName: 'types' },
      since: { type: 'string', description: 'Replay everything after this event (moves the stored cursor).', valueName: 'evt_id' },
      interval: { type: 'string', description: 'Time between polls (default 2s).', valueName: 'duration' },
      'print-secret': { type: 'boolean', description: "Print this profile's signing secret on stdout and exit." },
    },
    examples: [
      'payments listen --forward-to http://localhost:3000/webhooks',
      'payments listen --forward-to http://localhost:3000/webhooks --events payment_intent.succeeded,dispute.*',
      'payments listen --forward-to http://localhost:3000/webhooks --since evt_ABC234',
    ],
    notes:
      'The first run starts at the newest event; later runs resume after the last event handled, so nothing is missed across restarts. ' +
      'Verify deliveries with the printed secret exactly as in production: payments.webhooks.constructEvent(rawBody, header, { secret }). ' +
      'Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.',
    handlesSignals: true,
    async run(context) {
      const secret = webhookSecret(context.store, context.profileName);
      if (context.values['print-secret']) {
        context.out.data({ secret }, () => secret);
        return EXIT.ok;
      }
      const url = checkForwardUrl(optionalString(context.values, 'forward-to'));
      const matches = eventFilter(optionalString(context.values, 'events'));
      const intervalMs = durationOption(context.values, 'interval', '2s');
      const client = context.client();
      const owner = context.keyPrefix();
      const save = (state: FollowState) => context.store.saveListenState(context.profileName, { cursor: state.cursor, key_prefix: owner, seen: state.seen });

      let state = await startingState(context, client, owner);
      save(state);
      context.out.log(
        `Ready. Forwarding ${context.values.events ? `${String(context.values.events)} events` : 'events'} to ${url} (profile ${context.profileName}).`,
      );
      context.out.log(`Webhook signing secret: ${secret}`);
      context.out.log(state.cursor ? `Resuming after ${state.cursor}. Ctrl-C to stop.` : 'Forwarding every event from the first. Ctrl-C to stop.');

      let failures = 0;
      while (!context.signal.aborted) {
        try {
          for (const pending of await pollEvents(client.events.list({ limit: 100 }), state)) {
            if (matches(pending.event.type)) {
              const delivery = await forwardEvent(client, secret, pending.event, url);
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
        await sleep(failures ? Math.min(intervalMs * 2 ** failures, 30_000) : intervalMs, context.signal);
      }
      context.out.log(state.cursor ? `Stopped. The next listen resumes after ${state.cursor}.` : 'Stopped.');
      return EXIT.ok;
    },
  },
];

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
