/**
 * What the route table cannot say about each `/dashboard/v1` route: its name, what it answers
 * and which errors it adds (who may call it comes from the role table, by the route's action). Keyed by `METHOD path` as Hapi lists the route; a
 * dashboard route missing here is reported by the document test. The rules in prose are in
 * docs/dashboard.md.
 */
export interface DashboardOperationInfo {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly success: { readonly status: number; readonly schema?: string; readonly description: string };
  /** Statuses beyond the generic ones of its kind. */
  readonly errors?: readonly number[];
  /** No session needed: sign-in and the MFA claim. */
  readonly open?: boolean;
  /** Takes the acting person's one-time code in `code` (403 `mfa_code_invalid`, wrong codes throttled: 429). */
  readonly stepUp?: boolean;
}

const STEP_UP =
  'A step-up action: `code` is the one-time code of the person acting. A missing, wrong or reused code is 403 `mfa_code_invalid` and changes nothing; ' +
  'wrong codes are counted per user across every step-up route, and after 10 within 15 minutes the user gets 429 `rate_limited` with Retry-After (a right code does not reset the count).';

export const DASHBOARD_OPERATIONS: Readonly<Record<string, DashboardOperationInfo>> = {
  'POST /dashboard/v1/session': {
    operationId: 'signIn',
    summary: 'Sign in with email, password and one-time code',
    description:
      'Answers the user and sets the `dashboard_session` cookie (HttpOnly, SameSite=Strict, 30 minutes from sign-in). Every refusal is the same 401 `invalid_credentials`. ' +
      '10 failures within 15 minutes for one email, or from one client address, make further attempts 429 `rate_limited` with Retry-After, checked before the password is.',
    tag: 'Session',
    open: true,
    success: { status: 200, schema: 'DashboardUser', description: 'The signed-in user; the session is in the cookie.' },
  },
  'GET /dashboard/v1/session': {
    operationId: 'getSession',
    summary: 'The signed-in user',
    tag: 'Session',
    success: { status: 200, schema: 'DashboardUser', description: 'The user of the session.' },
  },
  'DELETE /dashboard/v1/session': {
    operationId: 'signOut',
    summary: 'Sign out: the session ends and the cookie is cleared',
    tag: 'Session',
    success: { status: 204, description: 'Signed out.' },
  },
  'POST /dashboard/v1/mfa': {
    operationId: 'claimMfa',
    summary: 'Claim a second factor with email and password (once per user, until a reset)',
    description: 'Throttled with sign-in (same counts). A user who has a second factor gets the same 401 as a wrong password.',
    tag: 'Session',
    open: true,
    success: { status: 200, schema: 'MfaClaim', description: 'The TOTP secret, shown this once.' },
  },
  'GET /dashboard/v1/users': {
    operationId: 'listUsers',
    summary: 'List the team, oldest first',
    tag: 'Team',
    success: { status: 200, schema: 'DashboardUserList', description: 'Every member.' },
  },
  'POST /dashboard/v1/users': {
    operationId: 'addUser',
    summary: 'Add a member (they claim their second factor before signing in)',
    description: `Only an owner adds an owner. A notice goes to the account's email. ${STEP_UP}`,
    tag: 'Team',
    stepUp: true,
    success: { status: 201, schema: 'DashboardUser', description: 'The new member.' },
    errors: [409],
  },
  'PATCH /dashboard/v1/users/{id}': {
    operationId: 'updateUser',
    summary: "Change a member's role or status",
    description:
      "Nobody changes their own row; only an owner grants or removes the owner role or changes an owner's row (403 `forbidden`). Disabling ends the member's sessions at once. " +
      `Granting admin or owner (to a member who had a lesser role) also takes \`code\` and writes a notice for the account's email; other changes need no code. ${STEP_UP} ` +
      'Concurrent changes of one member run one after the other, so none undoes another.',
    tag: 'Team',
    stepUp: true,
    success: { status: 200, schema: 'DashboardUser', description: 'The member as changed.' },
    errors: [404],
  },
  'POST /dashboard/v1/users/{id}/mfa': {
    operationId: 'resetUserMfa',
    summary: "Reset a member's second factor",
    description: `The old codes stop at once and the member's sessions end; they claim a new one with email and password. Notices go to the member and the account's email. ${STEP_UP}`,
    tag: 'Team',
    stepUp: true,
    success: { status: 200, schema: 'DashboardUser', description: 'The member, without a second factor.' },
    errors: [404],
  },
  'GET /dashboard/v1/settings': {
    operationId: 'getSettings',
    summary: 'The account settings (the four editable fields always present, null when unset)',
    tag: 'Settings',
    success: { status: 200, schema: 'MerchantSettings', description: 'The settings.' },
  },
  'PATCH /dashboard/v1/settings': {
    operationId: 'updateSettings',
    summary: 'Change business_name, support_email, statement_descriptor or settlement_schedule (null clears the optional ones)',
    tag: 'Settings',
    success: { status: 200, schema: 'MerchantSettings', description: 'The settings as changed.' },
  },
  'GET /dashboard/v1/api_keys': {
    operationId: 'listApiKeys',
    summary: 'List the API keys (prefixes only)',
    tag: 'API keys',
    success: { status: 200, schema: 'ApiKeyList', description: 'The keys.' },
  },
  'POST /dashboard/v1/api_keys': {
    operationId: 'createApiKey',
    summary: 'Mint an API key; its secret is in this answer only',
    tag: 'API keys',
    success: { status: 201, schema: 'ApiKey', description: 'The key with its secret.' },
    errors: [409],
  },
  'POST /dashboard/v1/api_keys/{id}/revoke': {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    tag: 'API keys',
    success: { status: 200, schema: 'ApiKey', description: 'The revoked key.' },
    errors: [404],
  },
  'GET /dashboard/v1/signing_keys': {
    operationId: 'listSigningKeys',
    summary: 'List the registered Ed25519 signing keys',
    tag: 'Signing keys',
    success: { status: 200, schema: 'SigningKeyList', description: 'The keys.' },
  },
  'POST /dashboard/v1/signing_keys': {
    operationId: 'registerSigningKey',
    summary: 'Register an Ed25519 public key',
    tag: 'Signing keys',
    success: { status: 201, schema: 'SigningKey', description: 'The key.' },
    errors: [409],
  },
  'GET /dashboard/v1/payout_methods': {
    operationId: 'listPayoutMethods',
    summary: "List the mode's payout destinations (masked)",
    tag: 'Payout methods',
    success: { status: 200, schema: 'PayoutMethodList', description: 'The destinations.' },
  },
  'POST /dashboard/v1/payout_methods': {
    operationId: 'registerPayoutMethod',
    summary: 'Register a payout destination',
    description: `The fields are checked first (400), then the code. A notice goes to the account's email; live destinations start unverified and hold live settlements for 24 hours. ${STEP_UP}`,
    tag: 'Payout methods',
    stepUp: true,
    success: { status: 201, schema: 'PayoutMethod', description: 'The destination.' },
  },
  'POST /dashboard/v1/payout_methods/{id}/default': {
    operationId: 'setDefaultPayoutMethod',
    summary: "Make a verified destination the mode's default",
    description: `A notice goes to the account's email; in live mode the 24-hour hold starts again. ${STEP_UP}`,
    tag: 'Payout methods',
    stepUp: true,
    success: { status: 200, schema: 'PayoutMethod', description: 'The new default.' },
    errors: [404, 409],
  },
  'GET /dashboard/v1/webhook_endpoints': {
    operationId: 'listWebhookEndpoints',
    summary: "List the mode's webhook endpoints with their delivery health",
    tag: 'Webhooks',
    success: { status: 200, schema: 'WebhookEndpointList', description: 'The endpoints.' },
  },
  'POST /dashboard/v1/webhook_endpoints': {
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint; its signing secret is in this answer only',
    tag: 'Webhooks',
    success: { status: 201, schema: 'WebhookEndpoint', description: 'The endpoint with its secret.' },
  },
  'PATCH /dashboard/v1/webhook_endpoints/{id}': {
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    tag: 'Webhooks',
    success: { status: 200, schema: 'WebhookEndpoint', description: 'The endpoint as changed.' },
    errors: [404],
  },
  'DELETE /dashboard/v1/webhook_endpoints/{id}': {
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint (nothing more is queued for it)',
    tag: 'Webhooks',
    success: { status: 200, schema: 'WebhookEndpointDeleted', description: 'Deleted.' },
    errors: [404],
  },
  'GET /dashboard/v1/webhook_deliveries': {
    operationId: 'listWebhookDeliveries',
    summary: 'List webhook deliveries, newest first',
    description:
      "Not a per-mode route. With `endpoint`: that endpoint's deliveries, whatever its mode. Without it: the account's deliveries of both modes. " +
      '`mode` narrows either to one mode. Each delivery names its mode.',
    tag: 'Webhooks',
    success: { status: 200, schema: 'WebhookDeliveryList', description: 'A page of deliveries.' },
  },
  'POST /dashboard/v1/webhook_deliveries/{id}/resend': {
    operationId: 'resendWebhookDelivery',
    summary: 'Queue one more attempt of a delivery (the relay sends it)',
    tag: 'Webhooks',
    success: { status: 202, schema: 'WebhookDelivery', description: 'The delivery, due now.' },
    errors: [404],
  },
};
