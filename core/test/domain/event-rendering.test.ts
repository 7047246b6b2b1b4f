import test from 'ava';
import { domainEvent, type DomainEvent } from '../../src/webhooks/domain/event.entity';
import { renderEvent, renderEventBody } from '../../src/webhooks/domain/event-rendering';
import { API_VERSIONS } from '../../src/merchants';

const random = { bytes: (n: number) => new Uint8Array(n).fill(7) };
const at = new Date('2026-09-01T10:00:00.250Z');

for (const version of API_VERSIONS) {
  test(`${version}: every body names its recipient, the event's merchant and mode, in data and livemode`, (t) => {
    for (const mode of ['test', 'live'] as const) {
      const event = domainEvent('payment_intent.succeeded', 'payment_intent', { id: 'pi_1', merchantId: 'mch_A', mode, status: 'succeeded' }, random, at);
      t.like(renderEvent(event, version), { livemode: mode === 'live', data: { merchant: 'mch_A', mode } });
    }
  });

  test(`${version}: the merchant and mode come from the event's own scope, the one it is delivered in, whatever its data holds`, (t) => {
    const event = domainEvent('dispute.opened', 'dispute', { id: 'dp_1', merchantId: 'mch_A', mode: 'live', status: 'open' }, random, at);
    const stray: DomainEvent = { ...event, data: { ...event.data, merchant: 'mch_B', mode: 'test' } };
    t.like(renderEvent(stray, version), { livemode: true, data: { merchant: 'mch_A', mode: 'live' } });
    // The fields keep the body's order: id, object, status, merchant, mode.
    t.true(renderEventBody(event, version).endsWith('"data":{"id":"dp_1","object":"dispute","status":"open","merchant":"mch_A","mode":"live"}}'));
  });
}
