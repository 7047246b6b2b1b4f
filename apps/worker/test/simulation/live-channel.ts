import { RestPaymentChannel, signRestCallback } from '@payments/channel-rest';
import { ChannelSandbox } from '@payments/channel-sandbox';
import { objectAt } from '@payments/api/dist/test/helpers/json';
import type {
  ChannelCapabilities,
  ChannelStatement,
  ChannelNotice,
  ChannelOrderStatus,
  ChannelDisputeStatus,
  Clock,
  Mode,
  PaymentChannel,
  PlaceOrderRequest,
  PlaceOrderResult,
  StatementQuery,
} from '@payments/core';

const SANDBOX_KEY = 'sk_sandbox_simulation_0123456789';
const SANDBOX_SECRET = 'cbs_sandbox_simulation_secret_0123456789';

/**
 * The live channel of an in-process run: the rest channel speaking to an in-process channel
 * sandbox (apps/channel-sandbox). The rest adapter takes only https for live mode and this
 * process can trust no self-signed certificate after start (NODE_EXTRA_CA_CERTS is read at
 * start), so the adapter is configured with the sandbox as its test endpoint and this wrapper
 * presents it as the live channel: live orders, queries, callbacks and disputes go through the
 * real rest protocol code over HTTP, only the scheme check is out of the way.
 */
export class SandboxLiveChannel implements PaymentChannel {
  readonly capabilities: ChannelCapabilities;

  private constructor(
    private readonly rest: RestPaymentChannel,
    readonly sandbox: ChannelSandbox,
  ) {
    this.capabilities = { ...rest.capabilities, modes: ['live'] };
  }

  static async start(clock: Clock): Promise<SandboxLiveChannel> {
    // settleAfterMs 0: a paid order is settled to the platform at once (real time), so the next
    // worker pass can report it; one callback try, since the run delivers its own signed at the
    // fake clock's time (the sandbox signs with the real clock, which the fake one leaves behind).
    const sandbox = new ChannelSandbox({ apiKey: SANDBOX_KEY, callbackSecret: SANDBOX_SECRET, settleAfterMs: 0, callbackTries: 1, callbackTimeoutMs: 2_000 });
    const url = await sandbox.listen(0);
    const rest = new RestPaymentChannel({ test: { baseUrl: url, apiKey: SANDBOX_KEY, callbackSecret: SANDBOX_SECRET }, clock, timeoutMs: 5_000, retries: 0 });
    return new SandboxLiveChannel(rest, sandbox);
  }

  /** The payer's and the dispute desk's side of the sandbox (`/sandbox/…`). */
  async desk(path: string, body: Record<string, unknown> = {}): Promise<{ status: number; json: unknown }> {
    const res = await fetch(`${this.sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json: unknown = await res.json();
    return { status: res.status, json };
  }

  /** The sandbox's record of an order, as its callbacks carry it. */
  async order(orderId: string): Promise<Record<string, unknown> | undefined> {
    const url = `${this.sandbox.url}/sandbox/orders/${orderId}`;
    // A read, so safe to send again: on a loaded machine one failed without an answer ("fetch
    // failed", SQLite seed 8 of a long run, cause not recorded), and the run stopped there.
    const res = await fetch(url).catch((error: unknown) => {
      if (!(error instanceof TypeError)) throw error;
      return fetch(url);
    });
    if (res.status !== 200) return undefined;
    const { payment_method: _method, expires_at: _expires, ...view } = objectAt(await res.json());
    return view;
  }

  /** A `Channel-Signature` for `raw` at `seconds` (the service's clock), as the sandbox signs. */
  sign(raw: string, seconds: number): string {
    return signRestCallback(SANDBOX_SECRET, raw, seconds);
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }

  placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    return this.rest.placeOrder({ ...request, mode: 'test' });
  }
  queryOrder(_mode: Mode, channelOrderId: string): Promise<ChannelOrderStatus> {
    return this.rest.queryOrder('test', channelOrderId);
  }
  verifyCallback(_mode: Mode, headers: Readonly<Record<string, string | undefined>>, rawBody: string): ChannelNotice {
    return this.rest.verifyCallback('test', headers, rawBody);
  }
  voidOrder(_mode: Mode, channelOrderId: string): Promise<void> {
    return this.rest.voidOrder('test', channelOrderId);
  }
  queryDispute(_mode: Mode, channelDisputeId: string): Promise<ChannelDisputeStatus> {
    return this.rest.queryDispute('test', channelDisputeId);
  }
  submitDisputeEvidence(_mode: Mode, channelDisputeId: string, evidence: Readonly<Record<string, string>>): Promise<void> {
    return this.rest.submitDisputeEvidence('test', channelDisputeId, evidence);
  }
  /** The sandbox's statement (rest protocol section 6.3), for the reconciliation of live mode. */
  statement(_mode: Mode, query: StatementQuery): Promise<ChannelStatement> {
    return this.rest.statement('test', query);
  }
}
