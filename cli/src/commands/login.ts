import { Payments } from '@payments/sdk';
import type { Command } from '../command.js';
import { keyPrefix } from '../config.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { keyValues } from '../output.js';

export const loginCommands: Command[] = [
  {
    name: 'login',
    summary: 'Store an API key (and API base) in a profile of your config dir.',
    options: {
      'skip-verify': { type: 'boolean', description: 'Store the key without checking it against the API.' },
    },
    examples: ['payments login --api-key sk_test_…', 'payments login --profile staging --api-key sk_test_… --api-base https://pay.staging.example.com'],
    notes:
      'The key is read from --api-key or PAYMENTS_API_KEY and checked with GET /v1/balance before it is stored. ' +
      'The file is written with mode 0600 in a 0700 directory; the key is never printed back, only its prefix.',
    async run(context) {
      const apiKey = typeof context.values['api-key'] === 'string' ? context.values['api-key'] : context.env.PAYMENTS_API_KEY;
      if (!apiKey) throw new UsageError('Pass --api-key sk_test_… (or set PAYMENTS_API_KEY).');
      if (!/^sk_(test|live)_[0-9A-Za-z]+$/.test(apiKey))
        throw new UsageError('An API key starts with sk_test_ or sk_live_ (the value given is not one; it is not shown).');
      if (!context.values['skip-verify']) {
        // A typo is cheaper to catch now than at the first real command; the key is never echoed.
        await new Payments(apiKey, { baseUrl: context.apiBase, maxNetworkRetries: 1 }).balance.retrieve();
      }
      context.store.updateProfile(context.profileName, { api_key: apiKey, api_base: context.apiBase });
      const summary = {
        profile: context.profileName,
        mode: apiKey.startsWith('sk_live_') ? 'live' : 'test',
        key_prefix: keyPrefix(apiKey),
        api_base: context.apiBase,
        config: context.store.configPath,
      };
      context.out.data(summary, () => keyValues(summary));
      context.out.log(`Logged in: profile ${summary.profile} uses ${summary.key_prefix} at ${summary.api_base}.`);
      return EXIT.ok;
    },
  },
];
