import type { Command } from './command.js';
import type { Program } from './command-line/index.js';
import { balanceCommands } from './commands/balance.js';
import { balanceTransactionCommands } from './commands/balance-transactions.js';
import { completionCommands } from './commands/completion.js';
import { disputeCommands } from './commands/disputes.js';
import { eventCommands } from './commands/events.js';
import { exportCommands } from './commands/exports.js';
import { listenCommands } from './commands/listen.js';
import { loginCommands } from './commands/login.js';
import { attemptCommands } from './commands/attempts.js';
import { paymentIntentCommands } from './commands/payment-intents.js';
import { refundCommands } from './commands/refunds.js';
import { settlementCommands } from './commands/settlements.js';
import { testModeCommands } from './commands/test-mode.js';
import { triggerCommands } from './commands/trigger.js';
import { EXIT } from './exit-codes.js';
import { versionLine } from './version.js';

/** Every command, in the order `payments --help` lists them. */
export const COMMANDS: readonly Command[] = [
  ...loginCommands,
  ...paymentIntentCommands,
  ...attemptCommands,
  ...refundCommands,
  ...disputeCommands,
  ...settlementCommands,
  ...balanceCommands,
  ...balanceTransactionCommands,
  ...exportCommands,
  ...eventCommands,
  ...testModeCommands,
  ...triggerCommands,
  ...listenCommands,
  // A getter: the completion script is made of this very list.
  ...completionCommands(() => PROGRAM),
];

export const PROGRAM: Program<Command> = {
  name: 'payments',
  description: 'payments: the payment service from your terminal (built on @payments/sdk).',
  globalOptions: {
    json: { type: 'boolean', description: 'Print the API object as JSON on stdout (tables otherwise).' },
    profile: { type: 'string', description: 'Profile to use (default: PAYMENTS_PROFILE, else "default").', valueName: 'name' },
    'api-key': { type: 'string', description: "API key for this call (default: PAYMENTS_API_KEY, else the profile's).", valueName: 'sk_…|rk_…' },
    'api-base': { type: 'string', description: "API base URL (default: PAYMENTS_API_BASE, the profile's, else http://localhost:4242).", valueName: 'url' },
    verbose: { type: 'boolean', description: 'Log each API answer (status, request id) on stderr.' },
  },
  commands: COMMANDS,
  epilogue: [
    `Exit codes: ${EXIT.ok} ok, ${EXIT.apiError} API error, ${EXIT.usage} usage, ${EXIT.authentication} authentication/permission, ${EXIT.invalidRequest} invalid request,`,
    `  ${EXIT.notFound} not found, ${EXIT.conflict} conflict/idempotency, ${EXIT.rateLimited} rate limited, ${EXIT.connection} connection, ${EXIT.waitFailed} wait failed or timed out.`,
    '',
    'Example:',
    '  payments login --api-key sk_test_…',
    '  payments trigger payment.succeeded',
  ],
  version: versionLine(),
};
