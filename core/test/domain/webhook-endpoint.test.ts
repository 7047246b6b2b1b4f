import test from 'ava';
import { EVENT_TYPES } from '../../src/webhooks/domain/event-types';
import { validateReturnUrl } from '../../src/payments/domain/return-url';
import { validateEnabledEvents, validateWebhookUrl, type WebhookEndpoint } from '../../src/webhooks/domain/webhook-endpoint.entity';
import { endpointReceives } from '../../src/webhooks/domain/webhook-delivery.entity';
import type { DomainEvent } from '../../src/webhooks/domain/event.entity';

const accepted = [
  'https://hooks.example.com/payments',
  'https://hooks.example.com:8443/p?x=1',
  'https://xn--bcher-kva.example/',
  'https://HOOKS.Example.COM./in',
];
const refused = [
  'http://hooks.example.com/',
  'https://127.0.0.1/',
  'https://10.0.0.8/',
  'https://2130706433/',
  'https://0x7f.1/',
  'https://0177.0.0.1/',
  'https://127.1/',
  'https://[::1]/',
  'https://[::ffff:7f00:1]/',
  'https://[fe80::1%25eth0]/',
  'https://localhost/',
  'https://api.localhost/',
  'https://user@hooks.example.com/',
  'https://:secret@hooks.example.com/',
  'https://intranet/',
  'https://hooks.example.42/',
  'wss://hooks.example.com/',
  '//hooks.example.com/',
  '',
  `https://hooks.example.com/${'a'.repeat(2048)}`,
];

for (const url of accepted) {
  test(`webhook url accepts ${url}`, (t) => {
    t.is(validateWebhookUrl(url), url);
  });
}

for (const url of refused) {
  test(`webhook url refuses ${url.slice(0, 60) || '(empty)'} with invalid_url, as return_url refuses it`, (t) => {
    t.like(
      t.throws(() => validateWebhookUrl(url)),
      { code: 'invalid_url', param: 'url' },
    );
    // One host-name rule for both fields.
    t.like(
      t.throws(() => validateReturnUrl(url)),
      { code: 'invalid_return_url', param: 'return_url' },
    );
  });
}

test('the seventeen event types (fourteen by default, three refund types on request) are accepted, each once', (t) => {
  t.is(EVENT_TYPES.length, 17);
  t.deepEqual(validateEnabledEvents([...EVENT_TYPES, ...EVENT_TYPES]), [...EVENT_TYPES]);
  t.deepEqual(validateEnabledEvents([]), []);
});

test('an event type the service does not deliver is refused naming enabled_events', (t) => {
  for (const value of ['payment_intent.created', 'payment_intent.*', 'Settlement.paid', 'dispute.won', '']) {
    t.like(
      t.throws(() => validateEnabledEvents(['payment_intent.succeeded', value])),
      { code: 'invalid_parameter', param: 'enabled_events' },
      value,
    );
  }
});

test('refund events reach only the endpoints that name them; an empty list keeps meaning the default types', (t) => {
  const now = new Date('2026-09-01T00:00:00Z');
  const endpoint = (enabledEvents: string[]): WebhookEndpoint => ({
    id: 'we_a',
    merchantId: 'mch_a',
    mode: 'test',
    url: 'https://hooks.example.com/in',
    status: 'enabled',
    enabledEvents,
    apiVersion: '2026-09-01',
    secretSealed: 'sealed',
    secretVersion: 1,
    created: now,
    updated: now,
  });
  const event = (type: string): DomainEvent => ({
    id: 'evt_A',
    type,
    merchantId: 'mch_a',
    mode: 'test',
    created: now,
    data: { id: 're_A', object: 'refund', status: 'succeeded', merchant: 'mch_a', mode: 'test' },
  });
  t.true(endpointReceives(endpoint([]), event('payment_intent.succeeded')));
  t.false(endpointReceives(endpoint([]), event('refund.succeeded')));
  t.true(endpointReceives(endpoint(['refund.succeeded']), event('refund.succeeded')));
  t.false(endpointReceives(endpoint(['refund.succeeded']), event('refund.failed')));
});
