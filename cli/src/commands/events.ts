import type { Event } from '@payments/sdk';
import type { Command, Context } from '../command.js';
import { CliError, EXIT } from '../exit-codes.js';
import { checkForwardUrl, deliveryLine, forwardEvent, webhookSecret } from '../forward.js';
import { ID, optionalString, positional } from '../values.js';
import { LIST_OPTIONS, listParams, printList, printObject } from './common.js';

/** The event, or exit 5: the API has no route for one event, the SDK pages the list for it. */
export async function findEvent(context: Context, id: string): Promise<Event> {
  const event = await context.client().events.retrieve(id);
  if (!event) throw new CliError(`No event ${id} among this key's events (test and live keys see their own).`, EXIT.notFound);
  return event;
}

export const eventCommands: Command[] = [
  {
    name: 'events list',
    summary: 'List events, newest first (the same events webhooks deliver).',
    options: { ...LIST_OPTIONS },
    examples: ['payments events list --limit 5'],
    async run(context) {
      const list = context.client().events.list(listParams(context));
      await printList(context, list, ['ID', 'TYPE', 'OBJECT', 'STATUS', 'CREATED'], (e) => [e.id, e.type, e.data.id, e.data.status, e.created]);
    },
  },
  {
    name: 'events get',
    summary: 'Show one event.',
    args: '<event>',
    examples: ['payments events get evt_ABC234 --json'],
    async run(context) {
      printObject(context, await findEvent(context, positional(context, 0, 'event', ID.event)));
    },
  },
  {
    name: 'events resend',
    summary: "Deliver one event again to a local receiver, signed with this profile's listen secret.",
    args: '<event>',
    options: { 'forward-to': { type: 'string', description: 'Where to POST it (required).', valueName: 'url' } },
    examples: ['payments events resend evt_ABC234 --forward-to http://localhost:3000/webhooks'],
    notes:
      "Signed with the profile's listen secret (v1, and Standard Webhooks' v1); not with v2, whose key lives only while listen runs. " +
      'Exits 0 when the receiver answers 2xx, 1 for another status, 8 when it cannot be reached.',
    async run(context) {
      const url = checkForwardUrl(optionalString(context.values, 'forward-to'));
      const event = await findEvent(context, positional(context, 0, 'event', ID.event));
      const delivery = await forwardEvent(context.client(), { secret: webhookSecret(context.store, context.profileName) }, event, url);
      context.out.line(delivery, deliveryLine(delivery));
      if (delivery.ok) return EXIT.ok;
      return delivery.status === undefined ? EXIT.connection : EXIT.apiError;
    },
  },
];
