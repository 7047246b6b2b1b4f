import { BIND_TO_TRANSACTION, StorageTransaction, type BindsToTransaction } from '@payments/core';
import type { ApiKey, AuditEntry, CheckoutSession, DashboardSession, DomainEvent, Merchant, PaymentAttempt, PaymentIntent, User } from '@payments/core';
import type { Notice, PayoutDestination, SigningKey, WebhookEndpoint } from '@payments/core';
import type { PlatformKey, WebhookDelivery, WebhookDeliveryAttempt } from '@payments/core';
import type { ChannelMovement, LedgerBalance, LedgerTransaction } from '@payments/core';
import type { Mode, ReconciliationItem, ReconciliationProgress, StatementLine } from '@payments/core';
import type { Dispute, Refund } from '@payments/core';
import type { Settlement } from '@payments/core';
import type { AccountScope } from '@payments/core';
import { deepCopy } from './deep-copy';
import { StorageMutex } from './storage-mutex';

/** A stored row with its insertion sequence: lists are ordered by it, newest first. */
export interface Sequenced<T> {
  readonly seq: number;
  readonly value: T;
}

/** Insertion order, and its reverse (lists newest first, like the SQL adapter's `seq DESC`). */
export const oldestFirst = (a: Sequenced<unknown>, b: Sequenced<unknown>): number => a.seq - b.seq;
export const newestFirst = (a: Sequenced<unknown>, b: Sequenced<unknown>): number => b.seq - a.seq;

/** Private copies of the values of `rows`, the first `limit` of them. */
export function copiesOf<T>(rows: readonly Sequenced<T>[], limit = rows.length): T[] {
  return rows.slice(0, limit).map((row) => deepCopy(row.value));
}

/** Whether a value belongs to the merchant and mode of `scope`. */
export function inScope(value: AccountScope, scope: AccountScope): boolean {
  return value.merchantId === scope.merchantId && value.mode === scope.mode;
}

/** A private copy of the row `id` of `table`, when it belongs to `scope`. */
export function findInScope<T extends AccountScope>(table: ReadonlyMap<string, Sequenced<T>>, scope: AccountScope, id: string): T | undefined {
  const row = table.get(id);
  return row && inScope(row.value, scope) ? deepCopy(row.value) : undefined;
}

/** Due rows in the order the SQL adapter claims them: the earliest instant first, then insertion order. */
export function earliestFirst<T>(instant: (value: T) => Date | undefined): (a: Sequenced<T>, b: Sequenced<T>) => number {
  // The rows were kept for having the instant; a missing one (never) would sort first.
  const time = (row: Sequenced<T>) => instant(row.value)?.getTime() ?? 0;
  return (a, b) => time(a) - time(b) || a.seq - b.seq;
}

/** A channel movement with what the posting that kept it says of it. */
export interface StoredChannelMovement {
  readonly movement: ChannelMovement;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly created: Date;
}

/** A statement line as read, with its channel, mode and when it was read. */
export interface StoredStatementLine {
  readonly channel: string;
  readonly mode: Mode;
  readonly line: StatementLine;
  readonly fetchedAt: Date;
}

export interface IdempotencyRecord {
  readonly fingerprint: string;
  readonly token: string;
  readonly state: 'in_flight' | 'completed';
  readonly lockedUntil?: number;
  readonly response?: { readonly status: number; readonly body: string };
  /** The object the request bound to its key: where a retry resumes. */
  readonly recoveryPoint?: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** The "tables". Values are private copies; repositories copy on the way in and out. */
export interface InMemoryTables {
  readonly merchants: Map<string, Merchant>;
  /** By user id. */
  readonly users: Map<string, User>;
  readonly apiKeys: Map<string, ApiKey>;
  /** By intent id. */
  readonly intents: Map<string, Sequenced<PaymentIntent>>;
  /** By attempt id. */
  readonly attempts: Map<string, Sequenced<PaymentAttempt>>;
  /** By token digest. */
  readonly checkoutSessions: Map<string, CheckoutSession>;
  /** By session id. */
  readonly dashboardSessions: Map<string, DashboardSession>;
  /** In insertion order. */
  readonly events: Sequenced<DomainEvent>[];
  readonly audit: Sequenced<AuditEntry>[];
  /** By `idempotencyKeyOf(scope)`. */
  readonly idempotency: Map<string, IdempotencyRecord>;
  /** By id. */
  readonly signingKeys: Map<string, Sequenced<SigningKey>>;
  /** By id. */
  readonly payoutDestinations: Map<string, Sequenced<PayoutDestination>>;
  /** By id; deleted ones stay (tombstones). */
  readonly webhookEndpoints: Map<string, Sequenced<WebhookEndpoint>>;
  /** In insertion order. */
  readonly notices: Sequenced<Notice>[];
  /** By id. */
  readonly webhookDeliveries: Map<string, Sequenced<WebhookDelivery>>;
  /** In insertion order. */
  readonly webhookDeliveryAttempts: Sequenced<WebhookDeliveryAttempt>[];
  /** Oldest first. */
  readonly platformKeys: PlatformKey[];
  /** The journal, by cause. */
  readonly ledgerTransactions: Map<string, LedgerTransaction>;
  /** The balance table, by account code. */
  readonly ledgerBalances: Map<string, LedgerBalance>;
  /** What the channel moved, by the cause of the posting that kept it. */
  readonly ledgerChannelMovements: Map<string, StoredChannelMovement>;
  /** The settlement covering an entry of a merchant's available account, by `<cause>#<index of the entry>`. */
  readonly ledgerCoverage: Map<string, string>;
  /** The channels' statement lines as read, by `<channel>:<mode>:<kind>:<channel id>`. */
  readonly reconciliationLines: Map<string, StoredStatementLine>;
  /** By `<channel>:<mode>`. */
  readonly reconciliationProgress: Map<string, ReconciliationProgress>;
  /** By id. */
  readonly reconciliationItems: Map<string, ReconciliationItem>;
  /** By dispute id. */
  readonly disputes: Map<string, Sequenced<Dispute>>;
  /** By refund id. */
  readonly refunds: Map<string, Sequenced<Refund>>;
  /** By settlement id. */
  readonly settlements: Map<string, Sequenced<Settlement>>;
}

function emptyTables(): InMemoryTables {
  return {
    merchants: new Map(),
    users: new Map(),
    apiKeys: new Map(),
    intents: new Map(),
    attempts: new Map(),
    checkoutSessions: new Map(),
    dashboardSessions: new Map(),
    events: [],
    audit: [],
    idempotency: new Map(),
    signingKeys: new Map(),
    payoutDestinations: new Map(),
    webhookEndpoints: new Map(),
    notices: [],
    webhookDeliveries: new Map(),
    webhookDeliveryAttempts: [],
    platformKeys: [],
    ledgerTransactions: new Map(),
    ledgerBalances: new Map(),
    ledgerChannelMovements: new Map(),
    ledgerCoverage: new Map(),
    reconciliationLines: new Map(),
    reconciliationProgress: new Map(),
    reconciliationItems: new Map(),
    disputes: new Map(),
    refunds: new Map(),
    settlements: new Map(),
  };
}

/**
 * The in-memory database: tables plus the transaction machinery. A unit of work holds the mutex
 * for its whole run and snapshots the tables so a throw restores them; a repository call outside
 * any unit of work takes the mutex for just that call (autocommit), so it never sees a running
 * unit of work's uncommitted writes.
 */
export class InMemoryStore implements BindsToTransaction {
  constructor(
    private readonly state: { current: InMemoryTables; sequence: number; readonly mutex: StorageMutex } = {
      current: emptyTables(),
      sequence: 0,
      mutex: new StorageMutex(),
    },
    /** The unit of work this view of the store runs in; none for the store itself. */
    readonly boundTo?: StorageTransaction,
  ) {}

  [BIND_TO_TRANSACTION](transaction: StorageTransaction): InMemoryStore {
    return this.boundTo === transaction ? this : new InMemoryStore(this.state, transaction);
  }

  get tables(): InMemoryTables {
    return this.state.current;
  }

  /** The next insertion sequence; like an auto-increment, never reused, even after rollback. */
  nextSequence(): number {
    this.state.sequence += 1;
    return this.state.sequence;
  }

  /** `value` as a new row: a private copy with the next insertion sequence. */
  sequenced<T>(value: T): Sequenced<T> {
    return { seq: this.nextSequence(), value: deepCopy(value) };
  }

  /** Adds `value` as the row `id` of `table`; an id in use already is the caller's bug (`what` names the row). */
  insertRow<T>(table: Map<string, Sequenced<T>>, id: string, value: T, what: string): void {
    if (table.has(id)) throw new Error(`Duplicate ${what} id ${id}`);
    table.set(id, this.sequenced(value));
  }

  /** Appends `value` to `table`; an id in use already is the caller's bug (`what` names the row). */
  appendRow<T extends { readonly id: string }>(table: Sequenced<T>[], value: T, what: string): void {
    if (table.some((row) => row.value.id === value.id)) throw new Error(`Duplicate ${what} id ${value.id}`);
    table.push(this.sequenced(value));
  }

  /** Runs one repository operation: inside the unit of work this view is bound to, or alone under the mutex. */
  atomic<T>(operation: () => T): Promise<T> {
    if (this.boundTo) {
      this.boundTo.assertOpen();
      return Promise.resolve().then(operation);
    }
    return this.state.mutex.runExclusive(operation);
  }

  /**
   * Runs `work` as one transaction: the one this view is bound to, else one of its own under the
   * mutex, whose callbacks waiting for the commit run once the mutex is free.
   */
  async transaction<T>(work: (transaction: StorageTransaction) => Promise<T>): Promise<T> {
    if (this.boundTo) return work(this.boundTo);
    const transaction = new StorageTransaction();
    let committed = false;
    try {
      const result = await this.state.mutex.runExclusive(async () => {
        const snapshot = structuredClone(this.state.current);
        try {
          return await work(transaction);
        } catch (error) {
          this.state.current = snapshot;
          throw error;
        }
      });
      committed = true;
      return result;
    } finally {
      await transaction.end(committed);
    }
  }
}
