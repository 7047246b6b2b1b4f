import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { EVENT_TYPES } from '@payments/sdk';
import type * as Sdk from '@payments/sdk';
import type { components, operations } from './generated/openapi';
import { jsonField } from './helpers/json';

/*
 * The SDK's types are written by hand (for their docs and the event union); this file holds them
 * to the OpenAPI document. `generated/openapi.ts` is made from docs/openapi.json by
 * openapi-typescript; the compile-time checks below fail the build when a hand-written type and
 * the document disagree, and the test fails when the generated file is stale.
 * Regenerate: npx openapi-typescript docs/openapi.json -o sdk/test/generated/openapi.ts
 */

type Schemas = components['schemas'];
/** true when A and B are the same type (modifiers and optionality included). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** true when A and B have the same keys and each can stand for the other. */
type Agree<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? ([A] extends [B] ? ([B] extends [A] ? true : false) : false) : false) : false;
type SameKeys<A, B> = Equals<keyof A, keyof B>;
/** The balance as the SDK reads it: each bucket's amounts may be BigInt. */
type WithExactAmounts<B> = { [K in keyof B]: B[K] extends Array<infer M> ? Array<{ [F in keyof M]: F extends 'amount' ? M[F] | bigint : M[F] }> : B[K] };
/** An object whose int64 sums (every field but counts) the SDK reads as BigInt past 2^53 − 1. */
type ExactSums<O> = { [F in keyof O]: F extends 'count' ? O[F] : O[F] | bigint };
/** A settlement summary as the SDK reads it. */
type ExactSummary<S extends { lines: object; other: unknown }> = {
  lines: { [T in keyof S['lines']]: ExactSums<S['lines'][T]> };
  other: S['other'] | bigint;
};
/** A settlement as the SDK reads it: its summary's sums may be BigInt. */
type ExactSettlement<S extends { summary: { lines: object; other: unknown } }> = Omit<S, 'summary'> & { summary: ExactSummary<S['summary']> };
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

// Each line fails to compile when the SDK and the document disagree on that type.
export const objectsAgree: Record<string, true> = {
  Money: true satisfies Agree<Sdk.Money, Schemas['Money']>,
  FxLock: true satisfies Agree<Sdk.FxLock, Schemas['FxLock']>,
  NextAction: true satisfies Agree<Sdk.NextAction, Schemas['NextAction']>,
  PaymentIntent: true satisfies Agree<Sdk.PaymentIntent, Schemas['PaymentIntent']>,
  PaymentIntentList: true satisfies Agree<Sdk.List<Sdk.PaymentIntent>, Schemas['PaymentIntentList']>,
  PaymentAttempt: true satisfies Agree<Sdk.PaymentAttempt, Schemas['PaymentAttempt']>,
  PaymentAttemptList: true satisfies Agree<Sdk.List<Sdk.PaymentAttempt>, Schemas['PaymentAttemptList']>,
  Refund: true satisfies Agree<Sdk.Refund, Schemas['Refund']>,
  RefundList: true satisfies Agree<Sdk.List<Sdk.Refund>, Schemas['RefundList']>,
  Dispute: true satisfies Agree<Sdk.Dispute, Schemas['Dispute']>,
  DisputeList: true satisfies Agree<Sdk.List<Sdk.Dispute>, Schemas['DisputeList']>,
  // A summary's sums past 2^53 − 1 arrive as BigInt (the document's int64 is a number to the generator).
  Settlement: true satisfies Agree<Sdk.Settlement, ExactSettlement<Schemas['Settlement']>>,
  SettlementList: true satisfies Agree<Sdk.List<Sdk.Settlement>, Omit<Schemas['SettlementList'], 'data'> & { data: ExactSettlement<Schemas['Settlement']>[] }>,
  SettlementSummary: true satisfies Agree<Sdk.SettlementSummary, ExactSummary<Schemas['SettlementSummary']>>,
  SettlementLineTotal: true satisfies Agree<Sdk.SettlementLineTotal, ExactSums<Schemas['SettlementLineTotal']>>,
  SettlementPaymentLines: true satisfies Agree<Sdk.SettlementPaymentLines, ExactSums<Schemas['SettlementPaymentLines']>>,
  NextSettlement: true satisfies Agree<
    Sdk.NextSettlement,
    Omit<Schemas['NextSettlement'], 'amount'> & { amount: Schemas['NextSettlement']['amount'] | bigint }
  >,
  // Balance amounts past 2^53 − 1 arrive as BigInt (the document's int64 is a number to the generator).
  Balance: true satisfies Agree<Sdk.Balance, WithExactAmounts<Schemas['Balance']>>,
  BalanceAmount: true satisfies Agree<Sdk.BalanceAmount, Omit<Schemas['BalanceAmount'], 'amount'> & { amount: Schemas['BalanceAmount']['amount'] | bigint }>,
  BalanceTransaction: true satisfies Agree<Sdk.BalanceTransaction, Schemas['BalanceTransaction']>,
  BalanceTransactionList: true satisfies Agree<Sdk.List<Sdk.BalanceTransaction>, Schemas['BalanceTransactionList']>,
  BalanceTransactionMoves: true satisfies Agree<Sdk.BalanceTransactionMoves, Schemas['BalanceTransactionMoves']>,
  BalanceTransactionExchange: true satisfies Agree<Sdk.BalanceTransactionExchange, Schemas['BalanceTransactionExchange']>,
  BalanceTransactionType: true satisfies Equals<Sdk.BalanceTransactionType, Schemas['BalanceTransaction']['type']>,
  FxQuote: true satisfies Agree<Sdk.FxQuote, Schemas['FxQuote']>,
  WebhookPublicKey: true satisfies Agree<Sdk.WebhookPublicKey, Schemas['WebhookPublicKey']>,
  WebhookPublicKeyList: true satisfies Agree<Sdk.List<Sdk.WebhookPublicKey>, Schemas['WebhookPublicKeyList']>,
  EventData: true satisfies Agree<Sdk.EventData, Schemas['EventData']>,
  // The SDK's Event is a union narrowed by type; every member must be an Event of the document.
  EventType: true satisfies Equals<Sdk.EventType, Schemas['Event']['type']>,
  EventKeys: true satisfies SameKeys<Sdk.Event, Schemas['Event']>,
  EventFits: true satisfies Sdk.Event extends Schemas['Event'] ? true : false,
  EventList: true satisfies Sdk.List<Sdk.Event> extends Schemas['EventList'] ? true : false,
  PaymentIntentStatus: true satisfies Equals<Sdk.PaymentIntentStatus, Schemas['PaymentIntent']['status']>,
  RefundStatus: true satisfies Equals<Sdk.RefundStatus, Schemas['Refund']['status']>,
  RefundReason: true satisfies Equals<Sdk.RefundReason, NonNullable<Schemas['Refund']['reason']>>,
  RefundFailureCode: true satisfies Equals<Sdk.RefundFailureCode, NonNullable<Schemas['Refund']['failure_code']>>,
  DisputeStatus: true satisfies Equals<Sdk.DisputeStatus, Schemas['Dispute']['status']>,
  SettlementStatus: true satisfies Equals<Sdk.SettlementStatus, Schemas['Settlement']['status']>,
};

export const paramsAgree: Record<string, true> = {
  PaymentIntentCreateParams: true satisfies Agree<Sdk.PaymentIntentCreateParams, Schemas['PaymentIntentCreateParams']>,
  PaymentAttemptCreateParams: true satisfies Agree<Sdk.PaymentAttemptCreateParams, Schemas['PaymentAttemptCreateParams']>,
  PaymentIntentSimulateParams: true satisfies Agree<Sdk.PaymentIntentSimulateParams, Schemas['PaymentIntentSimulateParams']>,
  PaymentIntentAdvanceParams: true satisfies Agree<Sdk.PaymentIntentAdvanceParams, Schemas['PaymentIntentAdvanceParams']>,
  RefundCreateParams: true satisfies Agree<Sdk.RefundCreateParams, Schemas['RefundCreateParams']>,
  RefundSimulateParams: true satisfies Agree<Sdk.RefundSimulateParams, Schemas['RefundSimulateParams']>,
  DisputeEvidenceParams: true satisfies Agree<Sdk.DisputeEvidenceParams, Schemas['DisputeEvidenceParams']>,
  // Query strings: the same names (values are typed for callers: numbers and Dates, not text).
  PaymentIntentListParams: true satisfies SameKeys<Sdk.PaymentIntentListParams, Query<'listPaymentIntents'>>,
  DisputeListParams: true satisfies SameKeys<Sdk.DisputeListParams, Query<'listDisputes'>>,
  RefundListParams: true satisfies SameKeys<Sdk.RefundListParams, Query<'listRefunds'>>,
  SettlementListParams: true satisfies SameKeys<Sdk.SettlementListParams, Query<'listSettlements'>>,
  EventListParams: true satisfies SameKeys<Sdk.EventListParams, Query<'listEvents'>>,
  BalanceTransactionListParams: true satisfies SameKeys<Sdk.BalanceTransactionListParams, Query<'listBalanceTransactions'>>,
  FxQuoteParams: true satisfies SameKeys<Sdk.FxQuoteParams, Query<'retrieveFxQuote'>>,
  PaymentIntentExportParams: true satisfies SameKeys<Sdk.PaymentIntentExportParams, Query<'exportPaymentIntents'>>,
  BalanceTransactionExportParams: true satisfies SameKeys<Sdk.BalanceTransactionExportParams, Query<'exportBalanceTransactions'>>,
  // The settlements export takes no query, as its params say.
  SettlementExportParams: true satisfies Equals<operations['exportSettlements']['parameters']['query'], undefined>,
  // An export answers text, which the SDK hands over as the CsvFile's `text`.
  CsvFileText: true satisfies Equals<Sdk.CsvFile['text'], operations['exportBalanceTransactions']['responses'][200]['content']['text/csv']>,
};

const REPO_ROOT = join(__dirname, '..', '..', '..');

/** `components.schemas` of docs/openapi.json. */
function documentSchemas(): unknown {
  const document: unknown = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8'));
  return jsonField(jsonField(document, 'components'), 'schemas');
}

test('the checked-in generated types are those of docs/openapi.json', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-types-'));
  try {
    const fresh = join(dir, 'openapi.ts');
    const run = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), join(REPO_ROOT, 'docs', 'openapi.json'), '-o', fresh],
      {
        encoding: 'utf8',
      },
    );
    t.is(run.status, 0, run.stderr);
    t.is(
      readFileSync(fresh, 'utf8'),
      readFileSync(join(REPO_ROOT, 'sdk', 'test', 'generated', 'openapi.ts'), 'utf8'),
      'regenerate sdk/test/generated/openapi.ts (see the comment at the top of this test)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('EVENT_TYPES lists every event type of the document, in its order', (t) => {
  const event = jsonField(documentSchemas(), 'Event');
  t.deepEqual([...EVENT_TYPES], jsonField(jsonField(jsonField(event, 'properties'), 'type'), 'enum'));
});

test('every object of the document has its SDK type checked', (t) => {
  const schemas = documentSchemas();
  if (typeof schemas !== 'object' || schemas === null) return t.fail('docs/openapi.json has no components.schemas');
  const checked = new Set([...Object.keys(objectsAgree), ...Object.keys(paramsAgree), 'Event', 'Error', 'OpenApiDocument']);
  t.deepEqual(
    Object.keys(schemas).filter((name) => !checked.has(name)),
    [],
  );
});
