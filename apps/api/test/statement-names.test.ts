import test from 'ava';
import { statementName, statementSpanName } from '../src/tracing/statement-names';

test('a statement span is named by its operation and first table, from SQL text with placeholders only', (t) => {
  const cases: Array<[string, string]> = [
    ['select `id`, `status` from `payment_intents` where `merchant_id` = ? and `id` = ? limit 1', 'SELECT payment_intents'],
    ['insert into `events` (`id`, `type`) values (?, ?)', 'INSERT events'],
    ['update `webhook_deliveries` set `locked_until` = ? where `id` in (?, ?)', 'UPDATE webhook_deliveries'],
    ['delete from "trace_contexts" where "recorded_at" < ?', 'DELETE trace_contexts'],
    ['BEGIN', 'BEGIN'],
    ['COMMIT', 'COMMIT'],
    ['(select count(*) as `n` from `ledger_entries`) union all (select 1)', 'SELECT ledger_entries'],
    ['select 1', 'SELECT'],
  ];
  for (const [sql, name] of cases) t.is(statementSpanName(statementName(sql)), name, sql);
  t.deepEqual(statementName('insert into `events` (`id`) values (?)'), { operation: 'INSERT', table: 'events' });
});
