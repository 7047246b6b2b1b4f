import type { RequestRoute } from '@hapi/hapi';
import { mayPerform, USER_ROLES, type DashboardAction } from '@payments/core';
import { answerHeaderComponents, answerHeaders } from './answer-headers';
import { CONTENT_DISPOSITION, csvContent, type CsvAnswer } from './csv-answer';
import { IDEMPOTENCY_KEY_PARAMETER, routeParameters, routeValidation, tagsOf, type OpenApiDocument, type RouteValidation } from './build-openapi';
import { joiToJsonSchema } from './joi-schema';
import { ERROR, includeComponent, type Component, type JsonSchema } from './json-schema';

/**
 * What the route table cannot say about a `/dashboard/v1` route: its name, what it answers and
 * which errors it adds (who may call it comes from the role table, by the route's action; the
 * two routes open without a session say so by their action). Each route carries its own
 * (`openapi` in its definition); a dashboard route without one is reported by the document test.
 * The rules in prose are in docs/dashboard.md.
 */
export interface DashboardOperationInfo {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly success: {
    readonly status: number;
    readonly schema?: Component;
    /** A file rather than JSON: its columns (`content` `text/csv`, saved under its Content-Disposition name). */
    readonly csv?: CsvAnswer;
    readonly description: string;
  };
  /** Statuses beyond the generic ones of its kind. */
  readonly errors?: readonly number[];
  /** Takes the acting person's one-time code in `code` (403 `mfa_code_invalid`, wrong codes throttled: 429). */
  readonly stepUp?: boolean;
}

/** How a step-up route's description ends (or goes on). */
export const STEP_UP =
  'A step-up action: `code` is the one-time code of the person acting. A missing, wrong or reused code is 403 `mfa_code_invalid` and changes nothing; ' +
  'wrong codes are counted per user across every step-up route, and after 10 within 15 minutes the user gets 429 `rate_limited` with Retry-After (a right code does not reset the count).';

/** What a signed-in route can answer whatever it does; the two open routes have their own. */
const SESSION_ERRORS = [400, 401, 403, 500, 503] as const;
const OPEN_ERRORS = [400, 401, 429, 500, 503] as const;

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'invalid_parameter (`param` names the field) or invalid_request; nothing changed.',
  401: 'authentication_required: no live session (signed out, expired after 30 minutes, or the user was disabled or reset). On sign-in and the MFA claim: invalid_credentials, whatever was wrong.',
  403: 'forbidden: the role may not do this, a team rule refuses it (nobody edits their own row; only an owner touches owners), or a write came with the Origin of another site. On step-up routes also mfa_code_invalid: the acting code is missing, wrong or used. On minting an API key also insufficient_permissions: the live key would exceed the role of the person minting it.',
  404: 'resource_not_found: no such object of this account (and mode, on per-mode routes).',
  409: 'Conflict: email_taken, signing_key_exists, destination_unverified, idempotency_key_in_use …',
  422: 'idempotency_key_reused: the Idempotency-Key was used with a different request.',
  429: 'rate_limited: too many failures (10 per 15 minutes); Retry-After says when to try again.',
  500: 'api_error.',
  503: 'api_error: a dependency is unreachable or the service is busy checking passwords; Retry-After says when to try again.',
};

/** The groups the dashboard's operations are listed under, with what each holds. */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Session: 'Signing in with a password and a one-time code, the session it opens, and signing out.',
  Team: 'The account’s people, their roles and their second factors.',
  Settings: 'The account’s business name, support email, statement descriptor and settlement schedule.',
  'API keys': 'The account’s API keys, secret (`sk_…`) and restricted (`rk_…`): issue and revoke.',
  'Signing keys': 'The account’s registered Ed25519 public keys.',
  Webhooks: 'Webhook endpoints and the log of their deliveries.',
  Payments: 'Payment intents of one mode, their attempts, events, disputes and refunds.',
  Refunds: 'Refunds of paid payment intents.',
  Disputes: 'Disputes and the evidence sent for them.',
  Balance: 'What the ledger holds for the account in one mode.',
  Settlements: 'Payouts of the available balance, and asking for one now.',
  'Payout methods': 'The bank accounts settlements are paid to.',
  Events: 'The log of changes of one mode: the bodies webhooks deliver.',
  Exports: 'Payments, settlements and balance transactions of one mode as CSV downloads (with a byte order mark, for spreadsheets).',
};

const DESCRIPTION = [
  'The dashboard API under /dashboard/v1, for people: a `dashboard_session` cookie from sign-in (email, password and a TOTP code), never an API key.',
  'Roles: owner (everything), admin (everything but granting or removing the owner role), developer (API keys, signing keys, webhook endpoints and deliveries; reads the rest), viewer (reads only). ' +
    'A role without the right gets 403 forbidden before its body is read; `x-roles` on each operation lists who may call it.',
  'Step-up actions (adding a member, granting admin or owner, resetting a second factor, registering a payout destination or changing the default) take `code`, the one-time code of the person acting; ' +
    'wrong codes are counted per user and throttled like sign-in.',
  'Per-mode routes take `?mode=test|live`. Writes sent with the `Origin` of another site are 403 forbidden. Refunds, dispute evidence and payouts need an Idempotency-Key: ' +
    'the same key and body replay the first answer. Errors answer `{error: {code, message, param?, request_id}}`. The rules in prose: docs/dashboard.md.',
].join('\n\n');

/**
 * The OpenAPI 3.1 document of `/dashboard/v1`, made from the live route table like the merchant
 * one: parameters and bodies from each route's joi schemas, the callers from the role table by
 * the route's action, answers from each route's `openapi` entry and the component families they belong to. A route
 * without an entry is listed with `x-undocumented: true`, so the document test names it.
 */
export function buildDashboardOpenApi(table: readonly RequestRoute[]): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  includeComponent(schemas, ERROR);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const routes = table
    .filter((route) => route.path.startsWith('/dashboard/v1/'))
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of routes) {
    const method = route.method.toLowerCase();
    const info = route.settings.plugins?.dashboard?.openapi;
    const validate = routeValidation(route);
    const action = route.settings.plugins?.dashboard?.action;
    const idempotent = route.settings.plugins?.dashboard?.idempotent === true;
    const operation = info ? describedOperation(info, action, idempotent, validate, schemas) : { 'x-undocumented': true, responses: {} };
    (paths[route.path] ??= {})[method] = { ...operation, parameters: [...routeParameters(validate), ...(idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : [])] };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Payment service dashboard API', version: '1', description: DESCRIPTION },
    tags: tagsOf(paths, TAG_DESCRIPTIONS),
    servers: [{ url: '/', description: 'The host of the service, e.g. http://localhost:4242 for `npm start`' }],
    security: [{ dashboardSession: [] }],
    paths,
    components: {
      schemas,
      headers: answerHeaderComponents(false),
      securitySchemes: {
        dashboardSession: { type: 'apiKey', in: 'cookie', name: 'dashboard_session', description: 'The session cookie POST /dashboard/v1/session sets.' },
      },
    },
  };
}

function describedOperation(
  info: DashboardOperationInfo,
  action: DashboardAction | 'open' | undefined,
  idempotent: boolean,
  validate: RouteValidation,
  schemas: Record<string, JsonSchema>,
): JsonSchema {
  const content = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
  const headers = (status: number, success: boolean) => answerHeaders({ status, success, idempotent, versioned: false });
  const responses: Record<string, JsonSchema> = {
    [String(info.success.status)]: {
      description: info.success.description,
      headers: { ...headers(info.success.status, true), ...(info.success.csv ? { 'Content-Disposition': CONTENT_DISPOSITION } : {}) },
      ...(info.success.schema ? { content: content(includeComponent(schemas, info.success.schema)) } : {}),
      ...(info.success.csv ? { content: csvContent(info.success.csv) } : {}),
    },
  };
  const open = action === 'open';
  const errors = [
    ...new Set([...(open ? OPEN_ERRORS : SESSION_ERRORS), ...(info.stepUp ? [429] : []), ...(idempotent ? [409, 422] : []), ...(info.errors ?? [])]),
  ].sort();
  for (const status of errors) {
    responses[String(status)] = { description: ERROR_DESCRIPTIONS[status] ?? 'Error.', headers: headers(status, false), content: content('Error') };
  }
  const operation: JsonSchema = {
    operationId: info.operationId,
    summary: info.summary,
    ...(info.description ? { description: info.description } : {}),
    tags: [info.tag],
    responses,
  };
  if (open) operation.security = [];
  else if (action !== undefined) operation['x-roles'] = USER_ROLES.filter((role) => mayPerform(role, action));
  if (validate.payload) {
    const name = `${info.operationId[0].toUpperCase()}${info.operationId.slice(1)}Body`;
    schemas[name] = joiToJsonSchema(validate.payload);
    operation.requestBody = { required: true, content: content(name) };
  }
  return operation;
}
