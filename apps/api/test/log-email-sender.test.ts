import { Writable } from 'node:stream';
import test from 'ava';
import pino from 'pino';
import { renderNotice, type Notice } from '@payments/core';
import { LogEmailSender } from '../src/log-email-sender';
import { jsonAt, textAt } from './helpers/json';

test('the log email sender writes the rendered notice at info, with the last four of the account only', async (t) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const sender = new LogEmailSender(pino({ level: 'info' }, stream));
  const notice: Notice = {
    id: 'ntc_TEST',
    merchantId: 'mch_test',
    kind: 'payout_destination.default_changed',
    recipient: 'owner@siam.example',
    details: {
      destination: 'pd_1',
      mode: 'live',
      type: 'bank_account',
      currency: 'THB',
      account_last4: '4321',
      user_email: 'admin@siam.example',
      hold_until: '2026-09-02T10:00:00.000Z',
    },
    created: new Date('2026-09-01T10:00:00Z'),
  };
  await sender.send({ to: notice.recipient, ...renderNotice(notice) });
  t.is(lines.length, 1);
  const line: unknown = JSON.parse(lines[0]);
  t.is(jsonAt(line, 'level'), 30);
  t.like(jsonAt(line, 'email'), { to: 'owner@siam.example', subject: 'Your default payout destination changed' });
  t.regex(textAt(line, 'email', 'text'), /bank account ending 4321 \(THB, live mode\)/);
  t.regex(textAt(line, 'email', 'text'), /held until 2026-09-02T10:00:00.000Z/);
});
