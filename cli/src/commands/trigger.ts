import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PAYMENT_INTENT_STATUSES, PaymentsError, REFUND_STATUSES, type Payments } from '@payments/sdk';
import type { Command, Context } from '../command.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { table } from '../output.js';
import { isOneOf, isRecord, optionalString, parseDuration, sleep } from '../values.js';
import { waitForIntent, waitForRefund } from '../wait.js';

/** The bundled scenarios: `cli/fixtures/<name>.json`, copied and edited for `--file`. */
export const FIXTURES_DIR = join(__dirname, '..', '..', '..', 'fixtures');

/**
 * A scenario file. Each step calls one SDK method; `{{run}}` is a fresh id for this run and
 * `{{name.field}}` the field of an earlier step's result kept under `name`.
 */
export interface Scenario {
  name: string;
  description?: string;
  steps: Step[];
}

export interface Step {
  action: Action;
  /** Keep the result under this name for later steps and the output. */
  name?: string;
  payment_intent?: string;
  dispute?: string;
  /** For `wait`: the refund to wait for, instead of `payment_intent`. */
  refund?: string;
  params?: Record<string, unknown>;
  /** For `wait`: the status (or comma list) and the time allowed. */
  status?: string;
  timeout?: string;
  /** Retry while the API answers one of these error codes (e.g. nothing_to_settle while the release lands). */
  retry?: { codes: string[]; timeout?: string };
}

const ACTIONS = [
  'payment_intents.create',
  'payment_intents.retrieve',
  'payment_intents.cancel',
  'attempts.create',
  'simulate',
  'advance',
  'wait',
  'disputes.find',
  'disputes.evidence',
  'settlements.create',
  'refunds.create',
] as const;
type Action = (typeof ACTIONS)[number];

type Results = Record<string, unknown>;

export const triggerCommands: Command[] = [
  {
    name: 'trigger',
    summary: 'Test mode: run a named end-to-end flow (payment.succeeded, refund.succeeded, dispute.lost, settlement.paid …).',
    args: '[scenario]',
    options: {
      file: { type: 'string', description: 'Run your own scenario file (copy one from the fixtures folder).', valueName: 'path' },
      list: { type: 'boolean', description: 'List the bundled scenarios.' },
      override: {
        type: 'string',
        multiple: true,
        description: "Set a field of a step's request body, repeatable: amount=1006, refund:amount=1006, payment_intent:metadata.order=A1.",
        valueName: '[step:]path=value',
      },
    },
    examples: [
      'payments trigger payment.succeeded',
      'payments trigger --list',
      'payments trigger payment.succeeded --override amount=4200 --override currency=PHP',
      'payments trigger refund.succeeded --override refund:amount=5000',
      'payments trigger --file ./my-flow.json --json',
    ],
    notes:
      `Scenarios are JSON files in ${FIXTURES_DIR}. settlement.paid needs a merchant on the manual settlement schedule. ` +
      '--override names the step by its "name" or its action (refund, refunds.create); without one it sets the first request body of the scenario. ' +
      'The value keeps the type of the field it replaces (amount=1006 stays a number); a new field is a number, true, false, null or JSON when it reads as one, else text.',
    handlesSignals: true,
    async run(context) {
      if (context.values.list) return listScenarios(context);
      const file = optionalString(context.values, 'file');
      const named = context.positionals[0];
      if (!file && !named) throw new UsageError('Name a scenario (payments trigger --list shows them) or pass --file.');
      const scenario = applyOverrides(loadScenario(file ?? scenarioPath(named)), overrideList(context));
      const results = await runScenario(context, scenario);
      context.out.data({ scenario: scenario.name, objects: results }, () =>
        table(
          ['NAME', 'OBJECT', 'ID', 'STATUS'],
          Object.entries(results).map(([name, value]) => [name, textField(value, 'object'), textField(value, 'id'), textField(value, 'status')]),
        ),
      );
      return EXIT.ok;
    },
  },
];

function overrideList(context: Context): string[] {
  const raw = context.values.override;
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
}

/** Path segments a request body may have; never one that reaches an object's prototype. */
const FIELD = /^[A-Za-z0-9_]+$/;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The scenario with each `[step:]path=value` set in a step's params. The step is named by its
 * `name` or its action, else it is the first step with a request body.
 */
export function applyOverrides(scenario: Scenario, overrides: readonly string[]): Scenario {
  // structuredClone: the bundled scenario stays as loaded; overrides change this run's copy only.
  const steps = structuredClone(scenario.steps);
  for (const override of overrides) {
    const match = /^(?:([A-Za-z0-9_.]+):)?([^=:]+)=([\s\S]*)$/.exec(override);
    if (!match) throw new UsageError(`--override takes [step:]path=value, e.g. amount=1006 or refund:amount=1006, not ${JSON.stringify(override)}.`);
    const [, stepName, path = '', text = ''] = match;
    const step = stepName === undefined ? steps.find((s) => s.params !== undefined) : steps.find((s) => s.name === stepName || s.action === stepName);
    if (!step) {
      const known = [...new Set(steps.flatMap((s) => (s.name ? [s.name, s.action] : [s.action])))].join(', ');
      throw new UsageError(
        stepName === undefined
          ? `${scenario.name} has no step with a request body to override.`
          : `${scenario.name} has no step ${JSON.stringify(stepName)}; its steps: ${known}.`,
      );
    }
    const keys = path.split('.');
    if (!keys.every((key) => FIELD.test(key) && !FORBIDDEN.has(key)))
      throw new UsageError(`--override: ${JSON.stringify(path)} is not a field path (letters, digits, _ and dots).`);
    let at: Record<string, unknown> = (step.params ??= {});
    for (const key of keys.slice(0, -1)) {
      const next = at[key];
      at = isRecord(next) ? next : (at[key] = {});
    }
    const last = keys[keys.length - 1] ?? '';
    at[last] = typedValue(text, at[last], path);
  }
  return { ...scenario, steps };
}

/** `text` as the type of the value it replaces; for a new field, what it reads as. */
function typedValue(text: string, current: unknown, path: string): unknown {
  if (typeof current === 'string') return text;
  if (typeof current === 'number') {
    // Whole numbers only: the API's numbers are amounts in minor units, counts and seconds.
    if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text)))
      throw new UsageError(`--override ${path} is a whole number in this scenario, not ${JSON.stringify(text)}.`);
    return Number(text);
  }
  if (typeof current === 'boolean') {
    if (text !== 'true' && text !== 'false') throw new UsageError(`--override ${path} is true or false in this scenario, not ${JSON.stringify(text)}.`);
    return text === 'true';
  }
  if (/^-?[0-9]+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  if (text === 'true' || text === 'false' || text === 'null' || /^[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new UsageError(`--override ${path}: ${JSON.stringify(text)} starts like JSON but is not JSON.`);
    }
  }
  return text;
}

function listScenarios(context: Context): number {
  const scenarios = readdirSync(FIXTURES_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => loadScenario(join(FIXTURES_DIR, file)));
  context.out.data(
    scenarios.map((s) => ({ name: s.name, description: s.description ?? '' })),
    () =>
      table(
        ['SCENARIO', 'DESCRIPTION'],
        scenarios.map((s) => [s.name, s.description]),
      ),
  );
  return EXIT.ok;
}

function scenarioPath(name: string): string {
  // A name, never a path: `trigger ../../x` must not read files outside the fixtures.
  if (!/^[a-z0-9_.-]+$/.test(name) || name.includes('..'))
    throw new UsageError(`Unknown scenario ${JSON.stringify(name)}; payments trigger --list shows them.`);
  const file = join(FIXTURES_DIR, `${name}.json`);
  try {
    readFileSync(file);
  } catch {
    throw new UsageError(`Unknown scenario ${JSON.stringify(name)}; payments trigger --list shows them.`);
  }
  return file;
}

export function loadScenario(path: string): Scenario {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`Cannot read scenario ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.steps) || parsed.steps.length === 0)
    throw new UsageError(`${path}: a scenario needs a non-empty "steps" array.`);
  const steps = parsed.steps.map((step: unknown, index) => readStep(step, `${path}: step ${index + 1}`));
  return { name: optionalText(parsed, 'name', path) ?? basename(path, '.json'), description: optionalText(parsed, 'description', path), steps };
}

/** A step as the scenario file wrote it, its fields checked so a typo is named rather than sent. */
function readStep(raw: unknown, where: string): Step {
  if (!isRecord(raw)) throw new UsageError(`${where} must be an object.`);
  const { action, params, retry } = raw;
  if (typeof action !== 'string' || !isOneOf(ACTIONS, action))
    throw new UsageError(`${where} has unknown action ${JSON.stringify(action)}; known: ${ACTIONS.join(', ')}.`);
  if (params !== undefined && !isRecord(params)) throw new UsageError(`${where}: "params" must be an object.`);
  const step: Step = {
    action,
    params,
    name: optionalText(raw, 'name', where),
    payment_intent: optionalText(raw, 'payment_intent', where),
    dispute: optionalText(raw, 'dispute', where),
    refund: optionalText(raw, 'refund', where),
    status: optionalText(raw, 'status', where),
    timeout: optionalText(raw, 'timeout', where),
  };
  if (retry !== undefined) {
    const codes = isRecord(retry) ? retry.codes : undefined;
    if (!isRecord(retry) || !isTextList(codes)) throw new UsageError(`${where}: "retry" must be {"codes": [...], "timeout"?}.`);
    step.retry = { codes, timeout: optionalText(retry, 'timeout', `${where} retry`) };
  }
  return step;
}

function optionalText(record: Record<string, unknown>, key: string, where: string): string | undefined {
  const value = record[key];
  if (value === undefined || typeof value === 'string') return value;
  throw new UsageError(`${where}: "${key}" must be a string.`);
}

function isTextList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** `value[key]` when it is a string: what a step's result shows of itself. */
function textField(value: unknown, key: string): string | undefined {
  const field: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
  return typeof field === 'string' ? field : undefined;
}

/** A step's params as the SDK method takes them. */
function sdkParams<T>(params: Record<string, unknown>): T {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a scenario writes the API's JSON body as is; the API validates it and answers 400 for what is wrong.
  return params as T;
}

async function runScenario(context: Context, scenario: Scenario): Promise<Results> {
  const client = context.client();
  const results: Results = {};
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  context.out.log(`Running ${scenario.name}${scenario.description ? `: ${scenario.description}` : ''}`);
  for (const [index, raw] of scenario.steps.entries()) {
    if (context.signal.aborted) throw new CliError('Stopped.', EXIT.waitFailed);
    const step = readStep(resolve(raw, { run, ...results }), `step ${index + 1}`);
    const result = await withRetry(context, step, () => runStep(context, client, step));
    if (step.name) results[step.name] = result;
    const id = textField(result, 'id');
    const status = textField(result, 'status');
    context.out.log(`  ${index + 1}/${scenario.steps.length} ${step.action}${id ? ` ${id}` : ''}${status ? ` ${status}` : ''}`);
  }
  return results;
}

async function runStep(context: Context, client: Payments, step: Step): Promise<unknown> {
  const params = step.params ?? {};
  const pi = () => need(step.payment_intent, 'payment_intent', step.action);
  switch (step.action) {
    case 'payment_intents.create':
      return client.paymentIntents.create(sdkParams(params));
    case 'payment_intents.retrieve':
      return client.paymentIntents.retrieve(pi());
    case 'payment_intents.cancel':
      return client.paymentIntents.cancel(pi());
    case 'attempts.create':
      return client.paymentIntents.attempts.create(pi(), sdkParams(params));
    case 'simulate':
      return client.testHelpers.paymentIntents.simulate(pi(), sdkParams(params));
    case 'advance':
      return client.testHelpers.paymentIntents.advance(pi(), sdkParams(params));
    case 'wait': {
      const options = { timeoutMs: parseDuration(step.timeout ?? '30s', 'timeout'), out: context.out, signal: context.signal };
      if (step.refund) return waitForRefund(client, step.refund, statuses(step, REFUND_STATUSES), options);
      return waitForIntent(client, pi(), statuses(step, PAYMENT_INTENT_STATUSES), options);
    }
    case 'disputes.find': {
      const id = pi();
      for await (const dispute of client.disputes.list({ limit: 100 })) if (dispute.payment_intent === id) return dispute;
      throw new CliError(`No dispute for ${id}.`, EXIT.notFound);
    }
    case 'disputes.evidence':
      return client.disputes.submitEvidence(need(step.dispute, 'dispute', step.action), sdkParams(params));
    case 'settlements.create':
      return client.settlements.create();
    case 'refunds.create':
      return client.refunds.create(sdkParams({ ...params, payment_intent: pi() }));
  }
}

/** A wait step's status, or comma list of them, each one of `allowed`. */
function statuses<S extends string>(step: Step, allowed: readonly S[]): S[] {
  return need(step.status, 'status', step.action)
    .split(',')
    .map((status) => {
      if (!isOneOf(allowed, status)) throw new UsageError(`Step ${step.action}: status must be among ${allowed.join(', ')}, not ${JSON.stringify(status)}.`);
      return status;
    });
}

/** Runs `call` again while it fails with one of the step's retry codes, until the retry timeout. */
async function withRetry(context: Context, step: Step, call: () => Promise<unknown>): Promise<unknown> {
  const deadline = Date.now() + parseDuration(step.retry?.timeout ?? '20s', 'retry.timeout');
  for (;;) {
    try {
      return await call();
    } catch (error) {
      const retryable = error instanceof PaymentsError && error.code !== undefined && (step.retry?.codes ?? []).includes(error.code);
      if (!retryable || Date.now() > deadline || context.signal.aborted) throw error;
      await sleep(500, context.signal);
    }
  }
}

function need(value: string | undefined, field: string, action: string): string {
  if (!value) throw new UsageError(`Step ${action} needs "${field}".`);
  return value;
}

/** Replaces `{{run}}` and `{{name.field}}` in every string of a step. */
function resolve(value: unknown, scope: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g, (_, path: string) => {
      const found = path.split('.').reduce<unknown>((at, key): unknown => (at && typeof at === 'object' ? Reflect.get(at, key) : undefined), scope);
      if (typeof found !== 'string' && typeof found !== 'number' && typeof found !== 'boolean')
        throw new UsageError(`{{${path}}} names nothing an earlier step kept.`);
      return String(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, scope));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, scope)]));
  return value;
}
