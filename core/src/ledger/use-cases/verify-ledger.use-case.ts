import { parseAccountCode, type LedgerBalance } from '../domain/ledger';
import type { Ledger } from '../ports/ledger.port';

/** One broken invariant. */
export interface LedgerBreak {
  readonly kind: 'unbalanced_transaction' | 'foreign_entry' | 'balance_mismatch' | 'unknown_account' | 'negative_bucket';
  /** The transaction's cause or the account's code. */
  readonly subject: string;
  readonly detail: string;
}

export interface LedgerReport {
  readonly ok: boolean;
  readonly accounts: number;
  readonly breaks: LedgerBreak[];
}
export interface VerifyLedgerDeps {
  readonly ledger: Ledger;
}

/**
 * `admin ledger verify`: every invariant of the journal. Each transaction sums to zero per
 * currency; no entry touches another merchant's or mode's account; the balance table equals the
 * journal account by account (a row the journal does not back is a break too); every account code
 * parses; a merchant's pending and dispute_hold buckets never go below zero (available may: a lost
 * dispute's fee can overdraw it).
 */
export class VerifyLedger {
  constructor(private readonly deps: VerifyLedgerDeps) {}

  async execute(input: { limit: number }): Promise<LedgerReport> {
    const breaks: LedgerBreak[] = [];
    for (const tx of await this.deps.ledger.unbalancedTransactions(input.limit)) {
      breaks.push({ kind: 'unbalanced_transaction', subject: tx.cause, detail: `entries in ${tx.currency} sum to ${tx.sum}` });
    }
    for (const entry of await this.deps.ledger.foreignEntries(input.limit)) {
      breaks.push({ kind: 'foreign_entry', subject: entry.cause, detail: `entry on ${entry.account}, which belongs to another merchant or mode` });
    }
    const journal = byAccount(await this.deps.ledger.journalTotals());
    const table = byAccount(await this.deps.ledger.balanceTable());
    for (const account of new Set([...journal.keys(), ...table.keys()])) {
      let expected = journal.get(account)?.balance ?? 0n;
      let stored = table.get(account)?.balance ?? 0n;
      // The two reads above are moments apart on a service that posts meanwhile: ask again, at one moment.
      if (expected !== stored) ({ journal: expected, table: stored } = await this.deps.ledger.settledBalance(account));
      if (expected !== stored) breaks.push({ kind: 'balance_mismatch', subject: account, detail: `balance table says ${stored}, journal sums to ${expected}` });
      const parsed = parseAccountCode(account);
      if (!parsed) breaks.push({ kind: 'unknown_account', subject: account, detail: 'not an account code' });
      else if (parsed.kind === 'merchant' && parsed.bucket !== 'available' && expected < 0n) {
        breaks.push({ kind: 'negative_bucket', subject: account, detail: `${parsed.bucket} is ${expected}` });
      }
    }
    const limited = breaks.slice(0, input.limit);
    return { ok: breaks.length === 0, accounts: journal.size, breaks: limited };
  }
}

function byAccount(rows: readonly LedgerBalance[]): Map<string, LedgerBalance> {
  return new Map(rows.map((row) => [row.account, row]));
}
