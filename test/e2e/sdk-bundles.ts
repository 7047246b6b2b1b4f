import { randomBytes } from 'node:crypto';
import { build, type Metafile } from 'esbuild';
import { webhookSignatureHeaders } from '@payments/core';
import { CryptoWebhookCrypto } from '@payments/node-runtime';
import { REPO_ROOT } from './process';

/*
 * The SDK as browsers and workers get it: bundled the way their tools bundle it (`@payments/sdk`
 * resolved through package.json `exports` under the runtime's conditions), then checked inside
 * the runtime by one script, so Chromium and the Worker-like vm context are held to the same checks.
 */

export interface SdkBundle {
  /** One script that sets `globalName`. */
  readonly code: string;
  /** Every module the bundle was made of, and every import any of them makes. */
  readonly inputs: readonly string[];
  readonly imports: readonly string[];
}

/**
 * Bundles `entry` (default: the whole SDK) for a runtime: `platform` and `conditions` as the
 * runtime's bundler sets them (wrangler: neutral with `workerd`/`worker`; a web app: browser).
 */
export async function bundleSdk(options: { platform: 'browser' | 'neutral'; conditions: string[]; globalName: string; entry?: string }): Promise<SdkBundle> {
  const result = await build({
    stdin: { contents: options.entry ?? "export * from '@payments/sdk';", resolveDir: REPO_ROOT, loader: 'js', sourcefile: 'entry.js' },
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    globalName: options.globalName,
    platform: options.platform,
    conditions: options.conditions,
    target: 'es2022',
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
  });
  const metafile: Metafile = result.metafile;
  return {
    code: result.outputFiles[0]?.text ?? '',
    inputs: Object.keys(metafile.inputs),
    imports: Object.values(metafile.inputs).flatMap((input) => input.imports.map((imported) => imported.path)),
  };
}

/** What RUNTIME_CHECKS needs: one delivery signed by the service's own signer, and how to verify it. */
export interface SignedDelivery {
  readonly body: string;
  /** The body with one value changed after signing. */
  readonly tampered: string;
  /** Every header the service sends, X-Webhook-Signature and the Standard Webhooks ones. */
  readonly headers: Readonly<Record<string, string>>;
  readonly secret: string;
  readonly keyId: string;
  readonly publicKey: string;
}

export function signedDelivery(): SignedDelivery {
  const crypto = new CryptoWebhookCrypto();
  const platform = crypto.generateEd25519();
  const secret = randomBytes(32).toString('hex');
  const body = JSON.stringify({
    id: 'evt_RUNTIME',
    type: 'payment_intent.succeeded',
    created: new Date().toISOString(),
    livemode: false,
    data: { id: 'pi_RUNTIME', object: 'payment_intent', status: 'succeeded', merchant: 'mch_1', mode: 'test' },
  });
  const keyId = 'key_RUNTIME';
  const headers = webhookSignatureHeaders(crypto, {
    eventId: 'evt_RUNTIME',
    timestamp: Math.floor(Date.now() / 1000),
    body,
    secretHex: secret,
    secretVersion: 1,
    platformKeyId: keyId,
    platformPrivateKey: platform.privateKey,
  });
  return { body, tampered: body.replace('"succeeded"', '"failed"'), headers, secret, keyId, publicKey: platform.publicKey };
}

/** What RUNTIME_CHECKS answers when every check passes (`fetchedKeys` only when given a base URL). */
export const EXPECTED_RESULTS = {
  v1: 'evt_RUNTIME',
  v2: 'evt_RUNTIME',
  standardV1: 'evt_RUNTIME',
  standardV1a: 'evt_RUNTIME',
  tamperedByKeys: 'body_changed',
  tamperedStandard: 'body_changed',
  otherMerchant: 'wrong_account',
  tamperedIsSignatureError: true,
  synchronousVerification: 'TypeError',
  testHeaderRoundTrip: 'evt_RUNTIME',
};

/**
 * Plain JavaScript the runtime evaluates as `(RUNTIME_CHECKS)(sdk, delivery, baseUrl?)`: verifies
 * the delivery by v1 and v2, by X-Webhook-Signature and by the Standard Webhooks headers (a fetch
 * Headers), refuses the tampered body, and with a base URL fetches the platform keys through fetch.
 */
export const RUNTIME_CHECKS = `async (sdk, delivery, baseUrl) => {
  // The merchant the delivery names: a v2 signature is the platform's, so the event must be this client's.
  const payments = new sdk.Payments('sk_test_runtime', baseUrl ? { baseUrl, account: 'mch_1' } : { account: 'mch_1' });
  const elsewhere = new sdk.Payments('sk_test_runtime', { account: 'mch_2' }).webhooks;
  const webhooks = payments.webhooks;
  const own = delivery.headers['x-webhook-signature'];
  const standard = new Headers(Object.entries(delivery.headers).filter(([name]) => name !== 'x-webhook-signature'));
  const publicKeys = { [delivery.keyId]: delivery.publicKey };
  const refusal = async (run) => {
    try {
      await run();
      return 'verified';
    } catch (error) {
      return error instanceof sdk.SignatureVerificationError ? error.reason : String(error);
    }
  };
  const results = {
    v1: (await webhooks.constructEventAsync(delivery.body, own, { secret: delivery.secret })).id,
    v2: (await webhooks.constructEventAsync(new TextEncoder().encode(delivery.body), own, { publicKeys })).id,
    standardV1: (await webhooks.constructEventAsync(delivery.body, standard, { secret: delivery.secret })).id,
    standardV1a: (await webhooks.constructEventAsync(delivery.body, standard, { publicKeys })).id,
    tamperedByKeys: await refusal(() => webhooks.constructEventAsync(delivery.tampered, own, { publicKeys, secret: delivery.secret })),
    tamperedStandard: await refusal(() => webhooks.constructEventAsync(delivery.tampered, standard, { publicKeys })),
    otherMerchant: await refusal(() => elsewhere.constructEventAsync(delivery.body, own, { publicKeys })),
    tamperedIsSignatureError: await webhooks.constructEventAsync(delivery.tampered, own, { publicKeys }).then(
      () => false,
      (error) => error instanceof sdk.PaymentsError && error.type === 'SignatureVerificationError',
    ),
    synchronousVerification: (() => {
      try {
        webhooks.constructEvent(delivery.body, own, { secret: delivery.secret });
        return 'verified';
      } catch (error) {
        return error.name;
      }
    })(),
    testHeaderRoundTrip: (
      await webhooks.constructEventAsync(delivery.body, await webhooks.generateTestHeaderAsync({ payload: delivery.body, secret: delivery.secret }), {
        secret: delivery.secret,
      })
    ).id,
  };
  if (baseUrl) results.fetchedKeys = (await webhooks.constructEventAsync(delivery.body, own)).id;
  return results;
}`;
