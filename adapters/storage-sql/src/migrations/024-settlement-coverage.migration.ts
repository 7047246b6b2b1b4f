import type { Knex } from 'knex';
import { ID_LENGTH as ID } from './table-options';

/** How many entries one backfill statement marks. */
const BATCH = 500;

/**
 * `ledger_entries.settlement_id`: on an entry of a merchant's `available` account, the settlement
 * that paid (or, for its own `settlement_created` entry, is) that movement of available money
 * (docs/settlements.md, "What a settlement covers"). A settlement marks the entries it covers in the
 * transaction that creates it, so the entries it names add up to its amount and every movement of
 * available money is paid once. NULL: not yet covered (or not on an available account).
 *
 * Entries posted before: each available entry is attributed to the first settlement of its account
 * created after it (a settlement's own entry to itself); those after the last settlement stay
 * uncovered, for the next one. Settlements made before this migration followed the rules of their
 * day, so their attributed entries may not add up to their amounts exactly.
 */
export const settlementCoverage: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('ledger_entries', (table) => {
      table.string('settlement_id', ID).nullable();
      table.index(['account', 'settlement_id'], 'ledger_entries_settlement_index');
    });
    const rows: { seq: number | string; account: string; cause_type: string; cause_id: string }[] = await knex('ledger_entries as e')
      .join('ledger_transactions as t', 't.seq', 'e.transaction_seq')
      .where('e.account', 'like', 'm:%:available:%')
      .orderBy('e.seq', 'asc')
      .select('e.seq', 'e.account', 't.cause_type', 't.cause_id');
    const waiting = new Map<string, (number | string)[]>();
    const marks = new Map<string, (number | string)[]>();
    for (const row of rows) {
      const entries = waiting.get(row.account) ?? [];
      entries.push(row.seq);
      if (row.cause_type !== 'settlement_created') {
        waiting.set(row.account, entries);
        continue;
      }
      marks.set(row.cause_id, [...(marks.get(row.cause_id) ?? []), ...entries]);
      waiting.delete(row.account);
    }
    for (const [settlementId, seqs] of marks) {
      for (let start = 0; start < seqs.length; start += BATCH) {
        await knex('ledger_entries')
          .whereIn('seq', seqs.slice(start, start + BATCH))
          .update({ settlement_id: settlementId });
      }
    }
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('ledger_entries', (table) => {
      table.dropIndex(['account', 'settlement_id'], 'ledger_entries_settlement_index');
    });
    await knex.schema.alterTable('ledger_entries', (table) => {
      table.dropColumn('settlement_id');
    });
  },
};
