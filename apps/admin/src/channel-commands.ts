import { optionalString, requiredString, UsageError, type OptionSpec } from '@payments/cli/command-line';
import { ChannelCredentialStore, Clock, CoreError, isOneOf, maskSecret, MerchantRepository, MODES, type ChannelCredentials, type Mode } from '@payments/core';
import type { AdminCommand, AdminContext } from './commands';

/**
 * Each provider channel's settings: the option, the stored name, and the shape a value must have
 * in each mode (so a live key is never stored as a test one). Every setting is sealed at rest and
 * never printed: `channel show` answers them masked.
 */
interface ChannelSetting {
  readonly option: string;
  readonly name: string;
  readonly required: boolean;
  readonly pattern: (mode: Mode) => RegExp;
  readonly description: string;
}

const PROVIDER_SETTINGS: Readonly<Record<string, readonly ChannelSetting[]>> = {
  stripe: [
    {
      option: 'secret-key',
      name: 'secret_key',
      required: true,
      pattern: (mode) => new RegExp(`^(sk|rk)_${mode}_[A-Za-z0-9]{8,}$`),
      description: 'sk_test_… / sk_live_… (or a restricted rk_…)',
    },
    {
      option: 'webhook-secret',
      name: 'webhook_secret',
      required: true,
      pattern: () => /^whsec_[A-Za-z0-9+/=]{8,}$/,
      description: "whsec_…: the signing secret of the merchant's webhook endpoint",
    },
    {
      option: 'billing-email',
      name: 'billing_email',
      required: true,
      pattern: () => /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
      description: 'The billing email Stripe requires of a PromptPay payment',
    },
  ],
  omise: [
    {
      option: 'secret-key',
      name: 'secret_key',
      required: true,
      pattern: (mode) => new RegExp(`^skey_${mode}_[A-Za-z0-9]{8,}$`),
      description: 'skey_test_… / skey_live_…: the Omise secret key',
    },
    {
      option: 'public-key',
      name: 'public_key',
      required: false,
      pattern: (mode) => new RegExp(`^pkey_${mode}_[A-Za-z0-9]{8,}$`),
      description: 'pkey_test_… / pkey_live_…: the Omise public key (optional)',
    },
  ],
};

const CHANNEL_OPTIONS: Record<string, OptionSpec> = {
  merchant: { type: 'string', description: 'The merchant (mch_…).', valueName: 'mch_id' },
  mode: { type: 'string', description: 'test or live.', valueName: 'mode' },
};

function settingsOf(channel: string): readonly ChannelSetting[] {
  const settings = PROVIDER_SETTINGS[channel];
  if (!settings) throw new UsageError(`No provider channel '${channel}': ${Object.keys(PROVIDER_SETTINGS).join(', ')}.`);
  return settings;
}

function scopeOf(context: AdminContext): { channel: string; merchantId: string; mode: Mode } {
  const [channel = ''] = context.positionals;
  settingsOf(channel);
  const merchantId = requiredString(context.values, 'merchant');
  const mode = requiredString(context.values, 'mode');
  if (!isOneOf(MODES, mode)) throw new UsageError('--mode takes test or live.');
  return { channel, merchantId, mode };
}

/** What the CLI shows of stored credentials: which settings are set, masked. */
function present(credentials: ChannelCredentials): Record<string, unknown> {
  return {
    channel: credentials.channel,
    merchant: credentials.merchantId,
    mode: credentials.mode,
    settings: Object.fromEntries(Object.entries(credentials.secrets).map(([name, value]) => [name, maskSecret(value)])),
    updated: credentials.updatedAt.toISOString(),
  };
}

const setChannel: AdminCommand = {
  name: 'channel set',
  summary: "Set a merchant's credentials at a provider channel (stripe, omise) in one mode; its payments then route there.",
  args: '<channel>',
  options: {
    ...CHANNEL_OPTIONS,
    // An option several providers take (`--secret-key`) lists each one's rule.
    ...Object.fromEntries(
      [...new Set(Object.values(PROVIDER_SETTINGS).flatMap((settings) => settings.map((setting) => setting.option)))].map((option) => [
        option,
        {
          type: 'string',
          description: Object.entries(PROVIDER_SETTINGS)
            .flatMap(([channel, settings]) => settings.filter((setting) => setting.option === option).map((setting) => `${channel}: ${setting.description}`))
            .join('; '),
          valueName: 'value',
        } satisfies OptionSpec,
      ]),
    ),
  },
  examples: [
    'npm run -s admin -- channel set stripe --merchant mch_… --mode test --secret-key sk_test_… --webhook-secret whsec_… --billing-email payments@shop.example',
    'npm run -s admin -- channel set omise --merchant mch_… --mode test --secret-key skey_test_… --public-key pkey_test_…',
  ],
  notes:
    'The settings are sealed with the master key and never printed again; `channel show` answers them masked. Needs PAYMENTS_STRIPE_CHANNEL=on (or PAYMENTS_OMISE_CHANNEL=on) to route (docs/channels/stripe.md, docs/channels/omise.md).',
  async run(context) {
    const { channel, merchantId, mode } = scopeOf(context);
    if (!(await context.app.get(MerchantRepository).findById(merchantId))) {
      throw new CoreError('resource_not_found', 'not_found', `No merchant ${merchantId}.`, { param: 'merchant' });
    }
    const secrets: Record<string, string> = {};
    for (const setting of settingsOf(channel)) {
      const value = optionalString(context.values, setting.option);
      if (value === undefined) {
        if (setting.required) throw new UsageError(`--${setting.option} is required for ${channel}.`);
        continue;
      }
      // The value is never echoed: a usage error names the option, not what was typed.
      if (!setting.pattern(mode).test(value)) throw new UsageError(`--${setting.option} is not a ${mode}-mode ${setting.description}.`);
      secrets[setting.name] = value;
    }
    const credentials: ChannelCredentials = { channel, merchantId, mode, secrets, updatedAt: context.app.get(Clock).now() };
    await context.app.get(ChannelCredentialStore).put(credentials);
    context.print({ channel_credentials: present(credentials) });
  },
};

const showChannel: AdminCommand = {
  name: 'channel show',
  summary: "Which of a merchant's settings at a provider channel are set, masked (never the secrets).",
  args: '<channel>',
  options: CHANNEL_OPTIONS,
  examples: ['npm run -s admin -- channel show stripe --merchant mch_… --mode test'],
  async run(context) {
    const { channel, merchantId, mode } = scopeOf(context);
    const credentials = await context.app.get(ChannelCredentialStore).find(channel, merchantId, mode);
    if (!credentials) throw new CoreError('resource_not_found', 'not_found', `No ${channel} credentials for ${merchantId} in ${mode} mode.`);
    context.print({ channel_credentials: present(credentials) });
  },
};

const unsetChannel: AdminCommand = {
  name: 'channel unset',
  summary: "Remove a merchant's credentials at a provider channel: its new payments route as before.",
  args: '<channel>',
  options: CHANNEL_OPTIONS,
  examples: ['npm run -s admin -- channel unset stripe --merchant mch_… --mode test'],
  notes: "Orders already placed at the provider can no longer be queried there: unset only once the merchant's payments there are settled.",
  async run(context) {
    const { channel, merchantId, mode } = scopeOf(context);
    const removed = await context.app.get(ChannelCredentialStore).remove(channel, merchantId, mode);
    context.print({ channel_credentials: { channel, merchant: merchantId, mode, removed } });
  },
};

export const CHANNEL_COMMANDS: readonly AdminCommand[] = [setChannel, showChannel, unsetChannel];
