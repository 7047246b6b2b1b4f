import test from 'ava';
import { renderNotice, type Notice } from '../../src/dashboard/domain/notice.entity';

const base = { id: 'ntc_X', merchantId: 'mch_X', recipient: 'owner@siam.example', created: new Date('2026-09-01T10:00:00Z') };

test('each notice kind renders its own email; an unknown kind lists its details', (t) => {
  const registered: Notice = {
    ...base,
    kind: 'payout_destination.registered',
    details: { type: 'simulated', account_last4: '7890', currency: 'THB', mode: 'test', user_email: 'a@siam.example' },
  };
  t.like(renderNotice(registered), { subject: 'A payout destination was added to your account' });
  t.regex(renderNotice(registered).text, /simulated account ending 7890 \(THB, test mode\), was added by a@siam\.example\./);
  t.notRegex(renderNotice(registered).text, /held until/);
  const reset: Notice = { ...base, kind: 'user.mfa_reset', details: { user: 'usr_1', user_email: 'dev@siam.example', reset_by: 'owner@siam.example' } };
  t.like(renderNotice(reset), { subject: 'A second factor was reset on your team' });
  t.regex(renderNotice(reset).text, /dev@siam\.example was reset by owner@siam\.example/);
  const added: Notice = {
    ...base,
    kind: 'user.added',
    details: { user: 'usr_2', user_email: 'new@siam.example', role: 'admin', added_by: 'owner@siam.example' },
  };
  t.like(renderNotice(added), { subject: 'A member was added to your team' });
  t.regex(renderNotice(added).text, /new@siam\.example was added to your team as admin by owner@siam\.example\./);
  const granted: Notice = {
    ...base,
    kind: 'user.role_granted',
    details: { user: 'usr_2', user_email: 'dev@siam.example', role_from: 'developer', role_to: 'owner', granted_by: 'owner@siam.example' },
  };
  t.like(renderNotice(granted), { subject: 'A team member was made owner' });
  t.regex(renderNotice(granted).text, /dev@siam\.example was changed from developer to owner by owner@siam\.example\./);
  const other: Notice = { ...base, kind: 'something.new', details: { a: 1, b: true } };
  t.is(renderNotice(other).subject, 'Account notice: something.new');
  t.regex(renderNotice(other).text, /^a: 1\nb: true\n/);
});
