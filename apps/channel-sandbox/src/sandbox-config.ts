import type { SandboxOptions } from './sandbox';

export interface SandboxConfig extends SandboxOptions {
  readonly port: number;
  readonly host: string;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new Error(`${name} must be an integer from 0 to ${max}.`);
  return Number(raw);
}

/** Reads the sandbox's environment once, at start (`SANDBOX_*`). */
export function loadSandboxConfig(env: NodeJS.ProcessEnv): SandboxConfig {
  const apiKey = env.SANDBOX_API_KEY ?? '';
  const callbackSecret = env.SANDBOX_CALLBACK_SECRET ?? '';
  if (!apiKey) throw new Error('SANDBOX_API_KEY is required: the Bearer key the service is configured with (PAYMENTS_REST_CHANNEL_TEST_KEY).');
  if (!callbackSecret)
    throw new Error('SANDBOX_CALLBACK_SECRET is required: the callback secret the service is configured with (PAYMENTS_REST_CHANNEL_TEST_SECRET).');
  const publicUrl = env.SANDBOX_PUBLIC_URL?.replace(/\/+$/, '');
  return {
    port: integer(env, 'SANDBOX_PORT', 4300, 65535),
    host: env.SANDBOX_HOST || '127.0.0.1',
    apiKey,
    callbackSecret,
    settleAfterMs: integer(env, 'SANDBOX_SETTLE_AFTER_MS', 2000, 2 ** 31 - 1),
    refundAfterMs: integer(env, 'SANDBOX_REFUND_AFTER_MS', 1000, 2 ** 31 - 1),
    ...(publicUrl ? { publicUrl } : {}),
  };
}
