import { parseArgs } from 'node:util';
import { CreateMerchant, SetLiveMode, type SettlementSchedule } from '@payments/core';
import { PlatformKeys, VerifyLedger, Ledger, type PlatformKey } from '@payments/core';
import { Clock, CoreError, JobItemFailures, type JobItemFailure } from '@payments/core';
import { DUPLICATE_PAYMENTS_MAX_LIMIT, ListDuplicatePayments, type PaymentAttempt } from '@payments/core';
import type { AppContainer } from '@payments/api';

export class UsageError extends Error {}

/** A command's answer with an exit code of its own (a check that found a problem still prints its report). */
export class ExitWith {
  constructor(
    readonly output: unknown,
    readonly exitCode: number,
  ) {}
}

export const USAGE = `Usage: npm run -s admin -- <command>

  merchant create --name NAME --email EMAIL --password PASSWORD
                  [--settlement-currency THB] [--schedule daily|weekly|monthly|manual]
                  [--settlement-delay-days 2]
  merchant open-live <mch_id>     open live mode (the review passed)
  merchant close-live <mch_id>    close live mode again
  payments duplicates [--limit 100]
                                  second payments of already paid intents (the payer paid
                                  twice), latest first: each amount is owed back to its payer
  platform-keys rotate            publish a new webhook signing key now; it signs after
                                  PAYMENTS_KEY_ACTIVATION_S (default 3600)
  platform-keys list              the platform's webhook signing keys (public halves only)
  ledger verify [--limit 100]     check every ledger invariant; exit code 3 when one is broken
  ledger rebuild-balances         recompute the balance table from the journal (a repair)
  jobs failures [--limit 100]     background items that failed (job, lane, item, error code,
                                  attempts, next try), the most recent first
  jobs retry <item id>            make a failed item due now: the next pass of its job tries it

Prints JSON on stdout; errors as JSON on stderr with a non-zero exit code.`;

type Command = (app: AppContainer, args: string[]) => Promise<unknown>;

/** The `--limit N` of a listing command (default 100); the command's only option. */
function limitOption(args: string[], max = 999_999): number {
  const { values } = parseArgs({ args, options: { limit: { type: 'string' } }, strict: true });
  if (values.limit === undefined) return 100;
  const limit = /^[1-9][0-9]{0,5}$/.test(values.limit) ? Number(values.limit) : 0;
  if (limit < 1 || limit > max) throw new UsageError(`--limit takes a whole number from 1 to ${max}.`);
  return limit;
}

async function createMerchant(app: AppContainer, args: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'settlement-currency': { type: 'string' },
      schedule: { type: 'string' },
      'settlement-delay-days': { type: 'string' },
    },
    strict: true,
  });
  if (!values.name || !values.email || !values.password) throw new UsageError('merchant create needs --name, --email and --password.');
  const delay = values['settlement-delay-days'];
  if (delay !== undefined && !/^\d+$/.test(delay)) throw new UsageError('--settlement-delay-days takes a whole number of days.');
  const created = await app.get(CreateMerchant).execute({
    name: values.name,
    email: values.email,
    password: values.password,
    settlementCurrency: values['settlement-currency'],
    settlementSchedule: values.schedule as SettlementSchedule | undefined,
    settlementDelayDays: delay === undefined ? undefined : Number(delay),
  });
  const { merchant, owner } = created;
  return {
    merchant: {
      id: merchant.id,
      name: merchant.name,
      email: merchant.email,
      live_enabled: merchant.liveEnabled,
      settlement_currency: merchant.settlementCurrency,
      settlement_schedule: merchant.settlementSchedule,
      settlement_delay_days: merchant.settlementDelayDays,
      created: merchant.created.toISOString(),
    },
    owner: { id: owner.id, email: owner.email },
    test_api_key: created.testApiKey.secret,
  };
}

function setLive(enabled: boolean): Command {
  return async (app, args) => {
    const [merchantId] = args;
    if (!merchantId || args.length !== 1) throw new UsageError(`merchant ${enabled ? 'open-live' : 'close-live'} takes one merchant id.`);
    await app.get(SetLiveMode).execute({ merchantId, enabled });
    return { merchant: { id: merchantId, live_enabled: enabled } };
  };
}

/** A second payment as the operator refunds it: who paid what, through which channel order. */
function presentDuplicatePayment(attempt: PaymentAttempt): Record<string, unknown> {
  return {
    payment_attempt: attempt.id,
    payment_intent: attempt.paymentIntentId,
    paid_by: attempt.duplicateOf,
    merchant: attempt.merchantId,
    mode: attempt.mode,
    amount: attempt.amount,
    currency: attempt.currency,
    channel: attempt.channel,
    channel_order_id: attempt.channelOrderId,
    succeeded_at: attempt.succeededAt?.toISOString(),
    ledger_cause: `duplicate_payment:${attempt.id}`,
  };
}

const listDuplicatePayments: Command = async (app, args) => {
  const limit = limitOption(args, DUPLICATE_PAYMENTS_MAX_LIMIT);
  return { duplicate_payments: (await app.get(ListDuplicatePayments).execute({ limit })).map(presentDuplicatePayment) };
};

/** A platform key without its private half. */
function presentPlatformKey(key: PlatformKey): Record<string, unknown> {
  return {
    id: key.id,
    algorithm: 'ed25519',
    public_key: key.publicKey,
    published_at: key.publishedAt.toISOString(),
    active_from: key.activeFrom.toISOString(),
    created: key.created.toISOString(),
  };
}

const rotatePlatformKey: Command = async (app, args) => {
  if (args.length !== 0) throw new UsageError('platform-keys rotate takes no arguments.');
  return { platform_key: presentPlatformKey(await app.get(PlatformKeys).rotate()) };
};

const listPlatformKeys: Command = async (app, args) => {
  if (args.length !== 0) throw new UsageError('platform-keys list takes no arguments.');
  return { platform_keys: (await app.get(PlatformKeys).published()).map(presentPlatformKey) };
};

const verifyLedger: Command = async (app, args) => {
  const report = await app.get(VerifyLedger).execute({ limit: limitOption(args) });
  return new ExitWith({ ledger: report }, report.ok ? 0 : 3);
};

const rebuildBalances: Command = async (app, args) => {
  if (args.length !== 0) throw new UsageError('ledger rebuild-balances takes no arguments.');
  return { ledger: { balance_rows: await app.get<Ledger>(Ledger).rebuildBalances() } };
};

/** A failure record as the operator reads it. */
function presentJobItemFailure(failure: JobItemFailure): Record<string, unknown> {
  return {
    job: failure.job,
    lane: failure.lane,
    item: failure.itemId,
    error_code: failure.errorCode,
    ...(failure.errorMessage === undefined ? {} : { error_message: failure.errorMessage }),
    attempts: failure.attempts,
    first_failed_at: failure.firstFailedAt.toISOString(),
    last_failed_at: failure.lastFailedAt.toISOString(),
    next_try_at: failure.nextTryAt.toISOString(),
  };
}

const listJobFailures: Command = async (app, args) => {
  const failures = await app.get<JobItemFailures>(JobItemFailures).list(limitOption(args));
  return { failures: failures.map(presentJobItemFailure) };
};

const retryJobItem: Command = async (app, args) => {
  const [itemId] = args;
  if (!itemId || args.length !== 1) throw new UsageError('jobs retry takes one item id (see jobs failures).');
  const retried = await app.get<JobItemFailures>(JobItemFailures).retryNow(itemId, app.get<Clock>(Clock).now());
  if (retried === 0) throw new CoreError('resource_not_found', 'not_found', `No failed background item '${itemId}'.`, { param: 'id' });
  return { retried: { item: itemId, records: retried } };
};

export const COMMANDS: Readonly<Record<string, Command>> = {
  'jobs failures': listJobFailures,
  'jobs retry': retryJobItem,
  'merchant create': createMerchant,
  'merchant open-live': setLive(true),
  'merchant close-live': setLive(false),
  'payments duplicates': listDuplicatePayments,
  'platform-keys rotate': rotatePlatformKey,
  'platform-keys list': listPlatformKeys,
  'ledger verify': verifyLedger,
  'ledger rebuild-balances': rebuildBalances,
};

/** Finds the command named by the first two words; the rest are its arguments. */
export function findCommand(argv: string[]): { command: Command; args: string[] } {
  const name = argv.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(argv.length === 0 ? 'No command given.' : `Unknown command '${name}'.`);
  return { command, args: argv.slice(2) };
}
