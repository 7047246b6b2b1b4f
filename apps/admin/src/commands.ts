import {
  COMMON_EXIT,
  optionalString,
  requiredString,
  UsageError,
  type Command,
  type CommandLine,
  type OptionSpec,
  type Program,
} from '@payments/cli/command-line';
import { CreateMerchant, SetLiveMode } from '@payments/core';
import { PlatformKeys, VerifyLedger, Ledger, type PlatformKey } from '@payments/core';
import { Clock, CoreError, JobItemFailures, type JobItemFailure } from '@payments/core';
import { DUPLICATE_PAYMENTS_MAX_LIMIT, ListDuplicatePayments, type PaymentAttempt } from '@payments/core';
import {
  isOneOf,
  ListReconciliationBreaks,
  MODES,
  RECONCILIATION_STATUSES,
  ReconcileChannel,
  type Amount,
  type Mode,
  type ReconciliationItem,
} from '@payments/core';
import { AppReadiness, type AppContainer } from '@payments/api';
import { CHANNEL_COMMANDS } from './channel-commands';

/** Exit codes of the operator CLI; scripts and monitoring branch on them: never renumber them. */
export const EXIT = {
  ok: COMMON_EXIT.ok,
  /** The command failed; the JSON error on stderr carries its code. */
  failed: 1,
  usage: COMMON_EXIT.usage,
  /** `ledger verify` found a broken invariant (its report is still printed). */
  ledgerBroken: 3,
  /** `recon run` left breaks open (they are still printed). */
  reconBreaks: 4,
} as const;

/** What an admin command receives; its positionals are exactly those its `args` name (checked before it runs). */
export interface AdminContext extends CommandLine {
  readonly app: AppContainer;
  /** The command's answer: one JSON document on stdout. */
  print(value: unknown): void;
}

export type AdminCommand = Command<AdminContext>;

const LIMIT_MAX = 999_999;

/** The `--limit N` of a listing command (default 100). */
function limitOption(max = LIMIT_MAX): Record<string, OptionSpec> {
  return { limit: { type: 'string', description: `How many, from 1 to ${max} (default 100).`, valueName: 'n' } };
}

function limitValue(context: AdminContext, max = LIMIT_MAX): number {
  const value = optionalString(context.values, 'limit');
  if (value === undefined) return 100;
  const limit = /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : 0;
  if (limit < 1 || limit > max) throw new UsageError(`--limit takes a whole number from 1 to ${max}.`);
  return limit;
}

const createMerchant: AdminCommand = {
  name: 'merchant create',
  summary: 'Create a merchant, its owner (who signs in with --email) and a test API key.',
  options: {
    name: { type: 'string', description: "The merchant's name (required).", valueName: 'name' },
    email: { type: 'string', description: "The owner's email, to sign in with (required).", valueName: 'email' },
    password: { type: 'string', description: "The owner's password (required).", valueName: 'password' },
    'settlement-currency': { type: 'string', description: 'Currency settlements pay out in (default THB).', valueName: 'code' },
    schedule: { type: 'string', description: 'Settlement schedule: daily, weekly, monthly or manual (default daily).', valueName: 'schedule' },
    'settlement-delay-days': {
      type: 'string',
      description: 'Days from the channel settling a payment to its money being available (default 2).',
      valueName: 'days',
    },
  },
  examples: ['npm run -s admin -- merchant create --name "My Shop" --email me@example.com --password "correct horse battery staple" --schedule manual'],
  async run(context) {
    const { values } = context;
    const [name, email, password] = [requiredString(values, 'name'), requiredString(values, 'email'), requiredString(values, 'password')];
    const delay = optionalString(values, 'settlement-delay-days');
    if (delay !== undefined && !/^\d+$/.test(delay)) throw new UsageError('--settlement-delay-days takes a whole number of days.');
    const created = await context.app.get(CreateMerchant).execute({
      name,
      email,
      password,
      settlementCurrency: optionalString(values, 'settlement-currency'),
      settlementSchedule: optionalString(values, 'schedule'),
      settlementDelayDays: delay === undefined ? undefined : Number(delay),
    });
    const { merchant, owner } = created;
    context.print({
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
    });
  },
};

function setLive(enabled: boolean): AdminCommand {
  const name = enabled ? 'open-live' : 'close-live';
  return {
    name: `merchant ${name}`,
    summary: enabled ? 'Open live mode (the review passed).' : 'Close live mode again.',
    args: '<mch_id>',
    examples: [`npm run -s admin -- merchant ${name} mch_…`],
    async run(context) {
      const [merchantId = ''] = context.positionals;
      await context.app.get(SetLiveMode).execute({ merchantId, enabled });
      context.print({ merchant: { id: merchantId, live_enabled: enabled } });
    },
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

const listDuplicatePayments: AdminCommand = {
  name: 'payments duplicates',
  summary: 'Second payments of already paid intents (the payer paid twice), latest first.',
  options: limitOption(DUPLICATE_PAYMENTS_MAX_LIMIT),
  examples: ['npm run -s admin -- payments duplicates --limit 10'],
  notes: 'Each amount is owed back to its payer until it is refunded through the channel.',
  async run(context) {
    const duplicates = await context.app.get(ListDuplicatePayments).execute({ limit: limitValue(context, DUPLICATE_PAYMENTS_MAX_LIMIT) });
    context.print({ duplicate_payments: duplicates.map(presentDuplicatePayment) });
  },
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

const rotatePlatformKey: AdminCommand = {
  name: 'platform-keys rotate',
  summary: 'Publish a new webhook signing key now.',
  examples: ['npm run -s admin -- platform-keys rotate'],
  notes: 'Deliveries are signed with it once PAYMENTS_KEY_ACTIVATION_S (default 3600) seconds have passed.',
  async run(context) {
    context.print({ platform_key: presentPlatformKey(await context.app.get(PlatformKeys).rotate()) });
  },
};

const listPlatformKeys: AdminCommand = {
  name: 'platform-keys list',
  summary: "The platform's webhook signing keys (public halves only).",
  examples: ['npm run -s admin -- platform-keys list'],
  async run(context) {
    context.print({ platform_keys: (await context.app.get(PlatformKeys).published()).map(presentPlatformKey) });
  },
};

const migrate: AdminCommand = {
  name: 'migrate',
  summary: 'Bring the database schema up to date, as a step of its own before a rollout.',
  examples: ['npm run -s admin -- migrate'],
  notes: 'Every process also migrates at start, under the same lock; this reports the schema once that is done.',
  async run(context) {
    // Starting the admin CLI's container ran the migrations; readiness says whether any is left.
    const report = await context.app.get(AppReadiness).check();
    context.print({ migrations: report.checks.migrations, database: report.checks.database });
    return report.checks.migrations === 'ok' ? EXIT.ok : EXIT.failed;
  },
};

const verifyLedger: AdminCommand = {
  name: 'ledger verify',
  summary: `Check every ledger invariant; exit code ${EXIT.ledgerBroken} when one is broken.`,
  options: limitOption(),
  examples: ['npm run -s admin -- ledger verify'],
  async run(context) {
    const report = await context.app.get(VerifyLedger).execute({ limit: limitValue(context) });
    context.print({ ledger: report });
    return report.ok ? EXIT.ok : EXIT.ledgerBroken;
  },
};

const rebuildBalances: AdminCommand = {
  name: 'ledger rebuild-balances',
  summary: 'Recompute the balance table from the journal (a repair).',
  examples: ['npm run -s admin -- ledger rebuild-balances'],
  async run(context) {
    context.print({ ledger: { balance_rows: await context.app.get<Ledger>(Ledger).rebuildBalances() } });
  },
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

const listJobFailures: AdminCommand = {
  name: 'jobs failures',
  summary: 'Background items that failed, the most recent first.',
  options: limitOption(),
  examples: ['npm run -s admin -- jobs failures'],
  notes: 'Each shows its job, lane, item id, error code, attempts and next try.',
  async run(context) {
    const failures = await context.app.get<JobItemFailures>(JobItemFailures).list(limitValue(context));
    context.print({ failures: failures.map(presentJobItemFailure) });
  },
};

const retryJobItem: AdminCommand = {
  name: 'jobs retry',
  summary: 'Make a failed item due now: the next pass of its job tries it.',
  args: '<item_id>',
  examples: ['npm run -s admin -- jobs retry pi_…'],
  notes: 'The item id is the item column of jobs failures.',
  async run(context) {
    const { app } = context;
    const [itemId = ''] = context.positionals;
    const retried = await app.get<JobItemFailures>(JobItemFailures).retryNow(itemId, app.get<Clock>(Clock).now());
    if (retried === 0) throw new CoreError('resource_not_found', 'not_found', `No failed background item '${itemId}'.`, { param: 'id' });
    context.print({ retried: { item: itemId, records: retried } });
  },
};

/** An exact amount as JSON: a number while it is one exactly, else its digits. */
function presentAmounts(amounts: readonly Amount[]): Array<{ amount: number | string; currency: string }> {
  return amounts.map(({ amount, currency }) => ({
    amount: amount <= BigInt(Number.MAX_SAFE_INTEGER) && amount >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(amount) : amount.toString(),
    currency,
  }));
}

/** A reconciliation item as the operator reads it (docs/operations.md, "Reconciliation breaks"). */
function presentBreak(item: ReconciliationItem): Record<string, unknown> {
  return {
    id: item.id,
    status: item.status,
    reason: item.reason,
    channel: item.channel,
    mode: item.mode,
    kind: item.kind,
    reference: item.reference,
    statement: presentAmounts(item.statement),
    ledger: presentAmounts(item.ledger),
    merchant: item.merchantId,
    detail: item.detail,
    first_seen_at: item.firstSeenAt.toISOString(),
    opened_at: item.openedAt?.toISOString(),
    cleared_at: item.clearedAt?.toISOString(),
    updated: item.updated.toISOString(),
  };
}

const RECON_FILTER_OPTIONS: Record<string, OptionSpec> = {
  channel: { type: 'string', description: 'Only this channel (simulator, rest, …).', valueName: 'name' },
  mode: { type: 'string', description: 'Only this mode: test or live.', valueName: 'mode' },
};

function modeOption(context: AdminContext): Mode | undefined {
  const mode = optionalString(context.values, 'mode');
  if (mode !== undefined && !isOneOf(MODES, mode)) throw new UsageError('--mode takes test or live.');
  return mode;
}

const listReconBreaks: AdminCommand = {
  name: 'recon breaks',
  summary: "Breaks between the channels' statements and the ledger, the most recently changed first.",
  options: {
    ...RECON_FILTER_OPTIONS,
    status: { type: 'string', description: 'open (default), waiting (not a break yet), cleared, or all.', valueName: 'status' },
    ...limitOption(),
  },
  examples: ['npm run -s admin -- recon breaks', 'npm run -s admin -- recon breaks --status cleared --mode live'],
  notes: 'What to do with each reason: docs/operations.md, "Reconciliation breaks".',
  async run(context) {
    const status = optionalString(context.values, 'status') ?? 'open';
    if (status !== 'all' && !isOneOf(RECONCILIATION_STATUSES, status)) throw new UsageError('--status takes open, waiting, cleared or all.');
    const mode = modeOption(context);
    const channel = optionalString(context.values, 'channel');
    const items = await context.app.get(ListReconciliationBreaks).execute({
      limit: limitValue(context),
      status,
      ...(mode ? { mode } : {}),
      ...(channel ? { channel } : {}),
    });
    context.print({ breaks: items.map(presentBreak) });
  },
};

const runRecon: AdminCommand = {
  name: 'recon run',
  summary: `Reconcile the channels' statements with the ledger now; exit code ${EXIT.reconBreaks} when breaks stay open.`,
  options: RECON_FILTER_OPTIONS,
  examples: ['npm run -s admin -- recon run', 'npm run -s admin -- recon run --mode test --channel simulator'],
  notes: 'The worker does the same every PAYMENTS_RECON_EVERY_S; a channel that does not answer fails the run (error channel_error).',
  async run(context) {
    const mode = modeOption(context);
    const channel = optionalString(context.values, 'channel');
    const reconcile = context.app.get(ReconcileChannel);
    const open: ReconciliationItem[] = [];
    for (const each of mode ? [mode] : MODES) {
      // A named channel is looked for in every mode asked; one mode without it is not an error.
      const channels = (await reconcile.due(each)).filter((item) => channel === undefined || item.channel === channel);
      for (const item of channels) open.push(...(await reconcile.execute({ mode: each, channel: item.channel })));
    }
    context.print({ breaks: open.map(presentBreak) });
    return open.length === 0 ? EXIT.ok : EXIT.reconBreaks;
  },
};

export const ADMIN: Program<AdminCommand> = {
  name: 'npm run -s admin --',
  description: "admin: the operator CLI, on the service's own database and settings (the PAYMENTS_* variables).",
  globalOptions: {},
  commands: [
    createMerchant,
    setLive(true),
    setLive(false),
    listDuplicatePayments,
    rotatePlatformKey,
    listPlatformKeys,
    migrate,
    verifyLedger,
    rebuildBalances,
    listJobFailures,
    retryJobItem,
    listReconBreaks,
    runRecon,
    ...CHANNEL_COMMANDS,
  ],
  epilogue: [
    'Prints JSON on stdout; an error is one JSON line on stderr: {"error": {"code": …, "message": …}}.',
    `Exit codes: ${EXIT.ok} ok, ${EXIT.failed} failed (the error's code says why), ${EXIT.usage} usage, ${EXIT.ledgerBroken} ledger verify found a broken invariant, ${EXIT.reconBreaks} recon run left breaks open.`,
    '',
    'Example:',
    '  npm run -s admin -- ledger verify',
  ],
};
