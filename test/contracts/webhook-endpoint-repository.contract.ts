import test from 'ava';
import { aScope, aWebhookEndpoint, ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

const later = (ms: number): Date => new Date(T0.getTime() + ms);

/** What every WebhookEndpointRepository promises. */
export function webhookEndpointRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} WebhookEndpointRepository: ${what}`;

  test(title('an endpoint reads back field for field, for its merchant only, in either mode'), async (t) => {
    const { webhookEndpoints } = storage();
    const scope = aScope('live');
    const endpoint = aWebhookEndpoint(scope, { enabledEvents: ['payment_intent.succeeded', 'settlement.paid'], description: 'main' });
    await webhookEndpoints.insert(endpoint);
    t.deepEqual(await webhookEndpoints.findById(scope.merchantId, endpoint.id), endpoint);
    t.is(await webhookEndpoints.findById(ids.merchant(), endpoint.id), undefined);
    const bare = aWebhookEndpoint(scope);
    await webhookEndpoints.insert(bare);
    const read = await webhookEndpoints.findById(scope.merchantId, bare.id);
    t.false(read !== undefined && ('description' in read || 'deletedAt' in read));
    t.deepEqual(read?.enabledEvents, []);
  });

  test(title('list is newest first, per mode, without tombstones'), async (t) => {
    const { webhookEndpoints } = storage();
    const scope = aScope('test');
    const first = aWebhookEndpoint(scope);
    const second = aWebhookEndpoint(scope);
    const gone = aWebhookEndpoint(scope);
    const live = aWebhookEndpoint({ ...scope, mode: 'live' });
    for (const endpoint of [first, second, gone, live]) await webhookEndpoints.insert(endpoint);
    t.true(await webhookEndpoints.markDeleted(scope.merchantId, gone.id, later(1000)));
    t.deepEqual(
      (await webhookEndpoints.list(scope)).map((e) => e.id),
      [second.id, first.id],
    );
    t.deepEqual(
      (await webhookEndpoints.list({ ...scope, mode: 'live' })).map((e) => e.id),
      [live.id],
    );
  });

  test(title('update stores the changeable fields only, and not on a tombstone or for another merchant'), async (t) => {
    const { webhookEndpoints } = storage();
    const scope = aScope('live');
    const endpoint = aWebhookEndpoint(scope, { description: 'old' });
    await webhookEndpoints.insert(endpoint);
    const { description: _d, ...withoutDescription } = endpoint;
    void _d;
    const changed = {
      ...withoutDescription,
      url: 'https://new.example.com/hooks',
      enabledEvents: ['dispute.opened'],
      apiVersion: '2026-09-01',
      status: 'disabled' as const,
      disabledReason: 'gone' as const,
      updated: later(5000),
    };
    t.true(await webhookEndpoints.update({ ...changed, secretSealed: 'v1.x.y.z', created: later(1), mode: 'test' }));
    t.deepEqual(await webhookEndpoints.findById(scope.merchantId, endpoint.id), changed, 'secret, created and mode never change');
    const { disabledReason: _reason, ...enabledAgain } = { ...changed, status: 'enabled' as const };
    void _reason;
    t.true(await webhookEndpoints.update(enabledAgain));
    t.deepEqual(await webhookEndpoints.findById(scope.merchantId, endpoint.id), enabledAgain, 'enabled again, the reason is gone');
    t.true(await webhookEndpoints.update(changed));
    t.false(await webhookEndpoints.update({ ...changed, merchantId: ids.merchant() }));
    t.true(await webhookEndpoints.markDeleted(scope.merchantId, endpoint.id, later(6000)));
    t.false(await webhookEndpoints.update(changed));
  });

  test(title('markDeleted keeps a tombstone: once, for the owner only, then not found'), async (t) => {
    const { webhookEndpoints } = storage();
    const scope = aScope('live');
    const endpoint = aWebhookEndpoint(scope);
    await webhookEndpoints.insert(endpoint);
    t.false(await webhookEndpoints.markDeleted(ids.merchant(), endpoint.id, later(1000)));
    t.true(await webhookEndpoints.markDeleted(scope.merchantId, endpoint.id, later(1000)));
    t.false(await webhookEndpoints.markDeleted(scope.merchantId, endpoint.id, later(2000)));
    t.is(await webhookEndpoints.findById(scope.merchantId, endpoint.id), undefined);
  });
}
