import { token } from '../../common';
/** One signed delivery attempt, ready to send. */
export interface WebhookRequest {
  readonly url: string;
  /** The exact bytes that were signed. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** What happened to one attempt, for the delivery's attempt log. */
export interface WebhookResponse {
  /** The endpoint's HTTP status; absent when no answer came (refused address, DNS, timeout, TLS). */
  readonly status?: number;
  /** Why there was no 2xx, for a person (never a secret). */
  readonly error?: string;
  /** The start of the endpoint's answer as text (at most the 1 KiB the sender reads); absent when it answered none. */
  readonly body?: string;
  readonly latencyMs: number;
}

/**
 * POSTs webhook deliveries to merchants' endpoints. The adapter guards egress: it resolves the
 * host and refuses loopback, private, link-local, multicast and unspecified addresses (IPv4-mapped
 * forms included) on the address it actually connects to, follows no redirect, and gives up after
 * `timeoutMs`. It never throws: every failure is a `WebhookResponse` without a 2xx status.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
export const WebhookSender = token<WebhookSender>('WebhookSender');
