import {
  isEmptyTransaction,
  parseAccountCode,
  type AccountScope,
  type ChannelMovementQuery,
  type ChannelMovementTotal,
  type ForeignEntry,
  type Ledger,
  type CoveredCauseTotal,
  type LedgerBalance,
  type LedgerEntry,
  type LedgerTransaction,
  type MerchantBucket,
  type SettlementCoverage,
  type UncoveredEntry,
  type UnbalancedTransaction,
} from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

/** Adds an entry to its account's balance in `balances` (a missing account starts at 0). */
function addToBalance(balances: Map<string, LedgerBalance>, entry: LedgerEntry): void {
  const row = balances.get(entry.account);
  balances.set(entry.account, { account: entry.account, currency: entry.currency, balance: (row?.balance ?? 0n) + BigInt(entry.amount) });
}

/** An entry's identity: its transaction's cause and its place among the transaction's entries. */
function entryId(tx: LedgerTransaction, index: number): string {
  return `${tx.cause}#${index}`;
}

export class InMemoryLedger implements Ledger {
  constructor(private readonly store: InMemoryStore) {}

  post(tx: LedgerTransaction): Promise<boolean> {
    return this.store.atomic(() => {
      const { ledgerTransactions, ledgerBalances, ledgerChannelMovements } = this.store.tables;
      // The channel's movement is kept once per cause, even when every leg rounded to zero.
      if (tx.channelMovement && !ledgerChannelMovements.has(tx.cause)) {
        ledgerChannelMovements.set(tx.cause, {
          movement: deepCopy(tx.channelMovement),
          merchantId: tx.merchantId,
          mode: tx.mode,
          created: new Date(tx.created),
        });
      }
      if (isEmptyTransaction(tx) || ledgerTransactions.has(tx.cause)) return false;
      ledgerTransactions.set(tx.cause, deepCopy(tx));
      for (const entry of tx.entries) addToBalance(ledgerBalances, entry);
      return true;
    });
  }

  channelMovements(query: ChannelMovementQuery): Promise<ChannelMovementTotal[]> {
    return this.store.atomic(() => {
      const stored = [...this.store.tables.ledgerChannelMovements.values()].filter((row) => row.mode === query.mode && row.movement.channel === query.channel);
      const keyOf = (row: { movement: { kind: string; reference: string } }): string => `${row.movement.kind}:${row.movement.reference}`;
      const wanted = new Set((query.keys ?? []).map((key) => `${key.kind}:${key.reference}`));
      if (query.activeSince !== undefined) {
        for (const row of stored) if (row.created >= query.activeSince) wanted.add(keyOf(row));
      }
      const everything = query.activeSince === undefined && query.keys === undefined;
      const totals = new Map<string, ChannelMovementTotal>();
      for (const row of stored) {
        if (!everything && !wanted.has(keyOf(row))) continue;
        const { movement } = row;
        const group = `${keyOf(row)}:${movement.currency}`;
        const known = totals.get(group);
        totals.set(group, {
          channel: movement.channel,
          kind: movement.kind,
          reference: movement.reference,
          currency: movement.currency,
          amount: (known?.amount ?? 0n) + BigInt(movement.amount),
          movements: (known?.movements ?? 0) + 1,
          merchantId: known && known.merchantId < row.merchantId ? known.merchantId : row.merchantId,
          firstCreated: known && known.firstCreated < row.created ? known.firstCreated : row.created,
          lastCreated: known && known.lastCreated > row.created ? known.lastCreated : row.created,
        });
      }
      return [...totals.values()].map(deepCopy);
    });
  }

  hasPosted(cause: string): Promise<boolean> {
    return this.store.atomic(() => this.store.tables.ledgerTransactions.has(cause));
  }

  paymentShares(scope: AccountScope, paymentIntentId: string): Promise<Record<MerchantBucket, bigint>> {
    return this.store.atomic(() => {
      const shares: Record<MerchantBucket, bigint> = { pending: 0n, available: 0n, dispute_hold: 0n };
      for (const tx of this.store.tables.ledgerTransactions.values()) {
        if (tx.paymentIntentId !== paymentIntentId || tx.merchantId !== scope.merchantId || tx.mode !== scope.mode) continue;
        for (const entry of tx.entries) {
          const account = parseAccountCode(entry.account);
          if (account?.kind === 'merchant') shares[account.bucket] += BigInt(entry.amount);
        }
      }
      return shares;
    });
  }

  balances(scope: AccountScope): Promise<LedgerBalance[]> {
    return this.store.atomic(() =>
      [...this.store.tables.ledgerBalances.values()]
        .filter((row) => {
          const account = parseAccountCode(row.account);
          return account?.kind === 'merchant' && account.merchantId === scope.merchantId && account.mode === scope.mode;
        })
        .map(deepCopy),
    );
  }

  /** The store's single writer lock already serialises units of work, so there is nothing more to lock. */
  balanceForUpdate(account: string): Promise<bigint> {
    return this.store.atomic(() => this.store.tables.ledgerBalances.get(account)?.balance ?? 0n);
  }

  uncoveredEntries(account: string): Promise<UncoveredEntry[]> {
    return this.store.atomic(() => {
      const found: UncoveredEntry[] = [];
      for (const tx of this.store.tables.ledgerTransactions.values()) {
        for (const [index, entry] of tx.entries.entries()) {
          if (entry.account !== account || this.store.tables.ledgerCoverage.has(entryId(tx, index))) continue;
          found.push({
            id: entryId(tx, index),
            amount: entry.amount,
            causeType: tx.causeType,
            causeId: tx.causeId,
            ...(tx.paymentIntentId === undefined ? {} : { paymentIntentId: tx.paymentIntentId }),
          });
        }
      }
      return found;
    });
  }

  coverEntries(account: string, settlementId: string, entryIds: readonly string[]): Promise<number> {
    return this.store.atomic(() => {
      const wanted = new Set(entryIds);
      let marked = 0;
      for (const tx of this.store.tables.ledgerTransactions.values()) {
        for (const [index, entry] of tx.entries.entries()) {
          const id = entryId(tx, index);
          if (entry.account !== account || !wanted.has(id) || this.store.tables.ledgerCoverage.has(id)) continue;
          this.store.tables.ledgerCoverage.set(id, settlementId);
          marked += 1;
        }
      }
      return marked;
    });
  }

  coverCause(account: string, settlementId: string, cause: string): Promise<number> {
    return this.store.atomic(() => {
      const tx = this.store.tables.ledgerTransactions.get(cause);
      let marked = 0;
      for (const [index, entry] of tx?.entries.entries() ?? []) {
        if (!tx || entry.account !== account || this.store.tables.ledgerCoverage.has(entryId(tx, index))) continue;
        this.store.tables.ledgerCoverage.set(entryId(tx, index), settlementId);
        marked += 1;
      }
      return marked;
    });
  }

  coveredTotals(account: string, settlementIds: readonly string[]): Promise<SettlementCoverage[]> {
    return this.store.atomic(() => {
      const { ledgerTransactions, ledgerCoverage } = this.store.tables;
      const causes = new Map<string, Map<LedgerTransaction['causeType'], CoveredCauseTotal>>();
      const released = new Map<string, { count: number; net: bigint; fee: bigint }>();
      const wanted = new Set(settlementIds);
      for (const tx of ledgerTransactions.values()) {
        for (const [index, entry] of tx.entries.entries()) {
          const settlementId = ledgerCoverage.get(entryId(tx, index));
          if (entry.account !== account || settlementId === undefined || !wanted.has(settlementId)) continue;
          if (tx.causeType === 'settlement_created' && tx.causeId === settlementId) continue;
          const totals = causes.get(settlementId) ?? new Map<LedgerTransaction['causeType'], CoveredCauseTotal>();
          const known = totals.get(tx.causeType);
          totals.set(tx.causeType, { causeType: tx.causeType, count: (known?.count ?? 0) + 1, amount: (known?.amount ?? 0n) + BigInt(entry.amount) });
          causes.set(settlementId, totals);
          if (tx.causeType !== 'release' || tx.paymentIntentId === undefined) continue;
          const booked = [...ledgerTransactions.values()].find(
            (other) =>
              other.causeType === 'payment' && other.paymentIntentId === tx.paymentIntentId && other.merchantId === tx.merchantId && other.mode === tx.mode,
          );
          const sum = released.get(settlementId) ?? { count: 0, net: 0n, fee: 0n };
          sum.count += 1;
          for (const leg of booked?.entries ?? []) {
            const legAccount = parseAccountCode(leg.account);
            if (legAccount?.kind === 'merchant') sum.net += BigInt(leg.amount);
            if (legAccount?.kind === 'platform' && legAccount.name === 'fee_revenue') sum.fee += BigInt(leg.amount);
          }
          released.set(settlementId, sum);
        }
      }
      return settlementIds.map((settlementId) => ({
        settlementId,
        causes: [...(causes.get(settlementId)?.values() ?? [])],
        released: released.get(settlementId) ?? { count: 0, net: 0n, fee: 0n },
      }));
    });
  }

  paymentsTotal(account: string, paymentIntentIds: readonly string[]): Promise<bigint> {
    return this.store.atomic(() => {
      const parsed = parseAccountCode(account);
      if (parsed?.kind !== 'merchant') return 0n;
      const wanted = new Set(paymentIntentIds);
      let total = 0n;
      for (const tx of this.store.tables.ledgerTransactions.values()) {
        if (tx.paymentIntentId === undefined || !wanted.has(tx.paymentIntentId) || tx.merchantId !== parsed.merchantId || tx.mode !== parsed.mode) continue;
        for (const entry of tx.entries) if (entry.account === account) total += BigInt(entry.amount);
      }
      return total;
    });
  }

  balanceTable(): Promise<LedgerBalance[]> {
    return this.store.atomic(() => [...this.store.tables.ledgerBalances.values()].map(deepCopy));
  }

  settledBalance(account: string): Promise<{ readonly table: bigint; readonly journal: bigint }> {
    return this.store.atomic(() => ({
      table: BigInt(this.store.tables.ledgerBalances.get(account)?.balance ?? 0n),
      journal: BigInt(this.totals().find((row) => row.account === account)?.balance ?? 0n),
    }));
  }

  journalTotals(): Promise<LedgerBalance[]> {
    return this.store.atomic(() => this.totals());
  }

  unbalancedTransactions(limit: number): Promise<UnbalancedTransaction[]> {
    return this.store.atomic(() => {
      const found: UnbalancedTransaction[] = [];
      for (const tx of this.store.tables.ledgerTransactions.values()) {
        const sums = new Map<string, bigint>();
        for (const entry of tx.entries) sums.set(entry.currency, (sums.get(entry.currency) ?? 0n) + BigInt(entry.amount));
        for (const [currency, sum] of sums) if (sum !== 0n) found.push({ cause: tx.cause, currency, sum });
      }
      return found.slice(0, limit);
    });
  }

  foreignEntries(limit: number): Promise<ForeignEntry[]> {
    return this.store.atomic(() => {
      const found: ForeignEntry[] = [];
      for (const tx of this.store.tables.ledgerTransactions.values()) {
        for (const entry of tx.entries) {
          const account = parseAccountCode(entry.account);
          if (account?.kind === 'merchant' && (account.merchantId !== tx.merchantId || account.mode !== tx.mode))
            found.push({ cause: tx.cause, account: entry.account });
        }
      }
      return found.slice(0, limit);
    });
  }

  rebuildBalances(): Promise<number> {
    return this.store.atomic(() => {
      const rows = this.totals();
      this.store.tables.ledgerBalances.clear();
      for (const row of rows) this.store.tables.ledgerBalances.set(row.account, row);
      return rows.length;
    });
  }

  private totals(): LedgerBalance[] {
    const totals = new Map<string, LedgerBalance>();
    for (const tx of this.store.tables.ledgerTransactions.values()) {
      for (const entry of tx.entries) addToBalance(totals, entry);
    }
    return [...totals.values()];
  }
}
