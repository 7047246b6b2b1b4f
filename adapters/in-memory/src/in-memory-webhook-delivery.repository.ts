import type { Mode } from '@payments/core';
import type {
  ClaimedDelivery,
  DeliveryAttemptRecord,
  Page,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookDeliveryListRequest,
  WebhookDeliveryListScope,
  WebhookDeliveryRepository,
  WebhookEndpointHealth,
} from '@payments/core';
import { deepCopy } from './deep-copy';
import { pageNewestFirst } from './in-memory-pagination';
import { earliestFirst, type InMemoryStore } from './in-memory-store';

export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly store: InMemoryStore) {}

  insert(delivery: WebhookDelivery): Promise<void> {
    return this.store.atomic(() => {
      this.store.insertRow(this.store.tables.webhookDeliveries, delivery.id, delivery, 'webhook delivery');
    });
  }

  claimDue(mode: Mode, now: Date, leaseUntil: Date, limit: number, excluding: ReadonlySet<string> = new Set()): Promise<ClaimedDelivery[]> {
    return this.store.atomic(() => {
      const t = now.getTime();
      const due = [...this.store.tables.webhookDeliveries.values()]
        .filter(
          (row) =>
            row.value.mode === mode &&
            !excluding.has(row.value.id) &&
            row.value.status === 'pending' &&
            row.value.nextRetryAt !== undefined &&
            row.value.nextRetryAt.getTime() <= t &&
            (row.value.lockedUntil === undefined || row.value.lockedUntil.getTime() <= t),
        )
        .sort(earliestFirst((value) => value.nextRetryAt))
        .slice(0, limit);
      const claimed: ClaimedDelivery[] = [];
      for (const row of due) {
        const value: WebhookDelivery = { ...row.value, lockedUntil: new Date(leaseUntil.getTime()) };
        this.store.tables.webhookDeliveries.set(value.id, { ...row, value });
        const event = this.store.tables.events.find((e) => e.value.id === value.eventId);
        if (!event) throw new Error(`Webhook delivery ${value.id} names no event`);
        claimed.push({ delivery: deepCopy(value), event: deepCopy(event.value) });
      }
      return claimed;
    });
  }

  recordAttempt(next: WebhookDelivery, heldUntil: Date, attempt: WebhookDeliveryAttempt | undefined): Promise<boolean> {
    return this.store.atomic(() => {
      const row = this.store.tables.webhookDeliveries.get(next.id);
      if (!row || row.value.lockedUntil?.getTime() !== heldUntil.getTime()) return false;
      if (attempt && this.store.tables.webhookDeliveryAttempts.some((logged) => logged.value.id === attempt.id))
        throw new Error(`Duplicate webhook delivery attempt id ${attempt.id}`);
      const { lockedUntil: _l, ...rest } = deepCopy(next);
      void _l;
      this.store.tables.webhookDeliveries.set(next.id, { ...row, value: rest });
      if (attempt) this.store.tables.webhookDeliveryAttempts.push(this.store.sequenced(attempt));
      return true;
    });
  }

  recordAttempts(records: readonly DeliveryAttemptRecord[]): Promise<boolean[]> {
    return this.store.transaction(async (transaction) => {
      const bound = transaction.bind(this);
      const held: boolean[] = [];
      for (const record of records) held.push(await bound.recordAttempt(record.next, record.heldUntil, record.attempt));
      return held;
    });
  }

  listAttempts(deliveryId: string): Promise<WebhookDeliveryAttempt[]> {
    return this.store.atomic(() =>
      this.store.tables.webhookDeliveryAttempts.filter((row) => row.value.deliveryId === deliveryId).map((row) => deepCopy(row.value)),
    );
  }

  findById(scope: WebhookDeliveryListScope, id: string): Promise<WebhookDelivery | undefined> {
    return this.store.atomic(() => {
      const row = this.store.tables.webhookDeliveries.get(id);
      const inScope = row && row.value.merchantId === scope.merchantId && (scope.mode === undefined || row.value.mode === scope.mode);
      return inScope ? deepCopy(row.value) : undefined;
    });
  }

  list(scope: WebhookDeliveryListScope, page: WebhookDeliveryListRequest): Promise<Page<WebhookDelivery>> {
    return this.store.atomic(() =>
      pageNewestFirst(this.store.tables.webhookDeliveries.values(), scope, page, 'webhook delivery', (value) =>
        page.endpointId === undefined ? true : value.endpointId === page.endpointId,
      ),
    );
  }

  rearm(next: WebhookDelivery): Promise<boolean> {
    return this.store.atomic(() => {
      const row = this.store.tables.webhookDeliveries.get(next.id);
      if (!row || row.value.merchantId !== next.merchantId || row.value.mode !== next.mode) return false;
      const value: WebhookDelivery = {
        ...row.value,
        status: next.status,
        scheduleAttempts: next.scheduleAttempts,
        ...(next.nextRetryAt === undefined ? {} : { nextRetryAt: new Date(next.nextRetryAt.getTime()) }),
        updated: new Date(next.updated.getTime()),
      };
      this.store.tables.webhookDeliveries.set(next.id, { ...row, value });
      return true;
    });
  }

  endpointHealth(endpointId: string): Promise<WebhookEndpointHealth> {
    return this.store.atomic(() => {
      const ids = new Set([...this.store.tables.webhookDeliveries.values()].filter((row) => row.value.endpointId === endpointId).map((row) => row.value.id));
      const attempts = this.store.tables.webhookDeliveryAttempts.filter((row) => ids.has(row.value.deliveryId)).map((row) => row.value);
      const successes = attempts.filter((a) => a.responseStatus !== undefined && a.responseStatus >= 200 && a.responseStatus < 300).length;
      const failures = attempts.filter((a) => !(a.responseStatus !== undefined && a.responseStatus >= 200 && a.responseStatus < 300));
      const last = failures[failures.length - 1];
      let failingSince: Date | undefined;
      for (const a of attempts) {
        const ok = a.responseStatus !== undefined && a.responseStatus >= 200 && a.responseStatus < 300;
        if (ok) failingSince = undefined;
        else if (failingSince === undefined) failingSince = new Date(a.at.getTime());
      }
      return {
        ...(failingSince === undefined ? {} : { failingSince }),
        attempts: attempts.length,
        successes,
        ...(last === undefined ? {} : { lastError: last.error ?? `HTTP ${last.responseStatus}`, lastErrorAt: new Date(last.at.getTime()) }),
      };
    });
  }
}
