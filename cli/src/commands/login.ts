import { Payments, PermissionError } from '@payments/sdk';
import type { Command, Context } from '../command.js';
import { DEFAULT_API_BASE, keyPrefix } from '../config.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { keyValues, table } from '../output.js';
import { promptSecret, readPipedSecret } from '../secret-input.js';

/**
 * The key to log in with. Preferably not from the command line, where shell history and the
 * process list keep it: piped in (--stdin, or whenever stdin is not a terminal), or typed at a
 * prompt that does not echo. --api-key and PAYMENTS_API_KEY still work, for scripts that have one.
 */
async function keyToLogInWith(context: Context): Promise<string> {
  const given = typeof context.values['api-key'] === 'string' ? context.values['api-key'] : undefined;
  if (context.values.stdin) {
    if (given !== undefined) throw new UsageError('Pass the key either on stdin (--stdin) or with --api-key, not both.');
    return readPipedSecret(process.stdin);
  }
  const fromFlagOrEnv = given ?? context.env.PAYMENTS_API_KEY;
  if (fromFlagOrEnv) return fromFlagOrEnv;
  if (!process.stdin.isTTY) return readPipedSecret(process.stdin);
  return promptSecret('API key (sk_test_…, sk_live_…, rk_test_… or rk_live_…, not shown): ', { stdin: process.stdin, stderr: process.stderr });
}

const mode = (apiKey: string) => (/^[sr]k_live_/.test(apiKey) ? 'live' : 'test');

/**
 * Checks the key against the API with GET /v1/balance. A restricted key (`rk_…`) without
 * `balance:read` is refused there with 403 `insufficient_permissions`, which still says the key
 * itself is known and live: that counts as checked.
 */
async function verifyKey(apiKey: string, apiBase: string): Promise<void> {
  try {
    await new Payments(apiKey, { baseUrl: apiBase, maxNetworkRetries: 1 }).balance.retrieve();
  } catch (error) {
    if (error instanceof PermissionError && error.code === 'insufficient_permissions' && apiKey.startsWith('rk_')) return;
    throw error;
  }
}

export const loginCommands: Command[] = [
  {
    name: 'login',
    summary: 'Store an API key (and API base) in a profile of your config dir.',
    options: {
      stdin: { type: 'boolean', description: 'Read the key from stdin (the first line), e.g. from a password manager.' },
      'skip-verify': { type: 'boolean', description: 'Store the key without checking it against the API.' },
    },
    examples: [
      'payments login',
      'pass show payments/test-key | payments login --stdin',
      'payments login --profile staging --api-base https://pay.staging.example.com',
    ],
    notes:
      'On a terminal it asks for the key without echoing it; piped, it reads the first line of stdin (--stdin says so explicitly). ' +
      '--api-key or PAYMENTS_API_KEY still work, but leave the key in shell history or the process list. ' +
      'The key is checked with GET /v1/balance before it is stored (a restricted key without balance:read passes when the API knows it). ' +
      'The file is written with mode 0600 in a 0700 directory; the key is never printed back, only its prefix.',
    async run(context) {
      const apiKey = await keyToLogInWith(context);
      if (!apiKey) throw new UsageError('No API key given: type it at the prompt, pipe it in (--stdin), or pass --api-key.');
      if (!/^[sr]k_(test|live)_[0-9A-Za-z]+$/.test(apiKey))
        throw new UsageError(
          'An API key starts with sk_test_ or sk_live_, or rk_test_ or rk_live_ for a restricted key (the value given is not one; it is not shown).',
        );
      // A typo is cheaper to catch now than at the first real command; the key is never echoed.
      if (!context.values['skip-verify']) await verifyKey(apiKey, context.apiBase);
      context.store.updateProfile(context.profileName, { api_key: apiKey, api_base: context.apiBase });
      const summary = {
        profile: context.profileName,
        mode: mode(apiKey),
        key_prefix: keyPrefix(apiKey),
        api_base: context.apiBase,
        config: context.store.configPath,
      };
      context.out.data(summary, () => keyValues(summary));
      context.out.log(`Logged in: profile ${summary.profile} uses ${summary.key_prefix} at ${summary.api_base}.`);
      return EXIT.ok;
    },
  },
  {
    name: 'logout',
    summary: 'Remove the stored API key of a profile (--all: of every profile).',
    options: { all: { type: 'boolean', description: 'Every profile of the config file.' } },
    examples: ['payments logout', 'payments logout --profile staging', 'payments logout --all'],
    notes:
      "The profile keeps its API base and listen's signing secret, so a later login restores it as it was. " +
      'A key in PAYMENTS_API_KEY or --api-key is not stored, so there is nothing to remove for it.',
    async run(context) {
      const names = context.values.all ? Object.keys(context.store.read().profiles) : [context.profileName];
      const removed = names.flatMap((name) => {
        const key = context.store.forgetKey(name);
        return key === undefined ? [] : [{ profile: name, key_prefix: keyPrefix(key) }];
      });
      context.out.data({ logged_out: removed }, () =>
        removed.length === 0
          ? '(no stored key)'
          : table(
              ['PROFILE', 'KEY'],
              removed.map((r) => [r.profile, r.key_prefix]),
            ),
      );
      for (const { profile, key_prefix } of removed) context.out.log(`Logged out: profile ${profile} no longer holds ${key_prefix}.`);
      if (removed.length === 0) context.out.log(`No stored key to remove (${context.values.all ? 'in any profile' : `profile ${context.profileName}`}).`);
      if (context.env.PAYMENTS_API_KEY) context.out.log('PAYMENTS_API_KEY is still set in this environment and is used when no key is stored.');
      return EXIT.ok;
    },
  },
  {
    name: 'profiles list',
    summary: 'List the profiles of your config file: mode, key prefix and API base (never a whole key).',
    examples: ['payments profiles list', 'payments profiles list --json'],
    notes: 'The profile in effect (--profile, PAYMENTS_PROFILE, else default) is marked with *.',
    async run(context) {
      const profiles = Object.entries(context.store.read().profiles).map(([name, profile]) => ({
        profile: name,
        active: name === context.profileName,
        mode: profile.api_key ? mode(profile.api_key) : null,
        key_prefix: profile.api_key ? keyPrefix(profile.api_key) : null,
        api_base: profile.api_base ?? DEFAULT_API_BASE,
      }));
      context.out.data(profiles, () =>
        profiles.length === 0
          ? '(none: payments login creates one)'
          : table(
              ['', 'PROFILE', 'MODE', 'KEY', 'API_BASE'],
              profiles.map((p) => [p.active ? '*' : '', p.profile, p.mode ?? '-', p.key_prefix ?? '(logged out)', p.api_base]),
            ),
      );
      return EXIT.ok;
    },
  },
];
