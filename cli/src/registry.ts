import type { Command } from './command.js';
import { balanceCommands } from './commands/balance.js';
import { disputeCommands } from './commands/disputes.js';
import { eventCommands } from './commands/events.js';
import { listenCommands } from './commands/listen.js';
import { loginCommands } from './commands/login.js';
import { attemptCommands } from './commands/attempts.js';
import { paymentIntentCommands } from './commands/payment-intents.js';
import { settlementCommands } from './commands/settlements.js';
import { testModeCommands } from './commands/test-mode.js';
import { triggerCommands } from './commands/trigger.js';

/** Every command, in the order `payments --help` lists them. */
export const COMMANDS: readonly Command[] = [
  ...loginCommands,
  ...paymentIntentCommands,
  ...attemptCommands,
  ...disputeCommands,
  ...settlementCommands,
  ...balanceCommands,
  ...eventCommands,
  ...testModeCommands,
  ...triggerCommands,
  ...listenCommands,
];
