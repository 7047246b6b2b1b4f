import { rmSync } from 'node:fs';
import * as https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { TLSSocket } from 'node:tls';
import { listenOnLoopback } from './process';
import { selfSigned } from './self-signed';

/** One request as the receiver got it. */
export interface RecordedWebhook {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  /** Lower-cased names, as Node parses them. */
  readonly headers: IncomingHttpHeaders;
  /** The exact bytes received (what the signatures cover). */
  readonly rawBody: Buffer;
  /** rawBody as UTF-8. */
  readonly body: string;
  /** The SNI name the client sent. */
  readonly servername?: string;
  readonly receivedAt: Date;
  /** The status the receiver answered with. */
  readonly answeredStatus: number;
}

export interface WebhookReceiverOptions {
  /** The DNS name the certificate is for and the service is told to resolve (default `hooks.test.example`). */
  readonly hostname?: string;
  /** Statuses answered in order, one per request; then `defaultStatus`. */
  readonly statuses?: readonly number[];
  /** Default 200. */
  readonly defaultStatus?: number;
  /** Path of the endpoint URL (default `/webhooks`). */
  readonly path?: string;
}

export interface WebhookReceiver {
  readonly hostname: string;
  /** Always 127.0.0.1: the address the service is pointed at. */
  readonly address: string;
  readonly port: number;
  /** `https://<hostname>:<port><path>`: register this as the endpoint URL. */
  readonly url: string;
  /** The receiver's self-signed certificate (PEM), its own CA. */
  readonly caPem: string;
  /** A temp file holding caPem, for NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  /**
   * What a service process needs to reach this receiver: NODE_EXTRA_CA_CERTS, PAYMENTS_EGRESS_ALLOW
   * and PAYMENTS_DNS_OVERRIDES. NODE_EXTRA_CA_CERTS is read at process start only: for an
   * in-process container pass `senderOptions` to an HttpWebhookSender instead.
   */
  readonly env: Readonly<Record<string, string>>;
  /** Options for `new HttpWebhookSender(…)` in the test's own process (ca instead of NODE_EXTRA_CA_CERTS). */
  readonly senderOptions: { readonly egressAllow: string[]; readonly dnsOverrides: Record<string, string>; readonly ca: string };
  /** Every request so far, in arrival order. */
  readonly requests: readonly RecordedWebhook[];
  /** Replaces the scripted statuses still to come. */
  script(statuses: readonly number[], defaultStatus?: number): void;
  /** Resolves once at least `count` requests arrived (rejects after `timeoutMs`, default 10 s). */
  waitFor(count: number, timeoutMs?: number): Promise<readonly RecordedWebhook[]>;
  /** Forgets the recorded requests. */
  clear(): void;
  /** Stops the server and removes the CA file. */
  close(): Promise<void>;
}

/** Starts an HTTPS webhook receiver on 127.0.0.1 with a fresh self-signed certificate for `hostname`. */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const hostname = options.hostname ?? 'hooks.test.example';
  const path = options.path ?? '/webhooks';
  const pems = await selfSigned({ name: hostname }, 'webhook-receiver-');
  const { dir, caFile } = pems;

  let pending = [...(options.statuses ?? [])];
  let fallback = options.defaultStatus ?? 200;
  const requests: RecordedWebhook[] = [];
  const waiters = new Set<() => void>();

  const server = https.createServer({ key: pems.key, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = pending.shift() ?? fallback;
      const rawBody = Buffer.concat(chunks);
      const servername = req.socket instanceof TLSSocket ? req.socket.servername : undefined;
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        body: rawBody.toString('utf8'),
        ...(typeof servername === 'string' ? { servername } : {}),
        receivedAt: new Date(),
        answeredStatus: status,
      });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not ok');
      for (const wake of [...waiters]) wake();
    });
  });
  const listening = await listenOnLoopback(server);
  const port = listening.port;
  const address = '127.0.0.1';

  return {
    hostname,
    address,
    port,
    url: `https://${hostname}:${port}${path}`,
    caPem: pems.cert,
    caFile,
    env: {
      NODE_EXTRA_CA_CERTS: caFile,
      PAYMENTS_EGRESS_ALLOW: address,
      PAYMENTS_DNS_OVERRIDES: `${hostname}=${address}`,
    },
    senderOptions: { egressAllow: [address], dnsOverrides: { [hostname]: address }, ca: pems.cert },
    requests,
    script(statuses, defaultStatus) {
      pending = [...statuses];
      if (defaultStatus !== undefined) fallback = defaultStatus;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve([...requests]);
      return new Promise((resolve, reject) => {
        const wake = (): void => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve([...requests]);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`webhook receiver: ${requests.length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    clear() {
      requests.length = 0;
    },
    close: async () => {
      await listening.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
