import { SignatureVerificationError } from '../errors.js';
import type { Event, Mode } from '../types.js';

/**
 * Who a client is, for key-signed deliveries: its mode (from its API key) and its merchant id,
 * given (`account`) or learned from the API.
 */
export interface RecipientOptions {
  /** The mode of the client's API key (`sk_test_…` or `sk_live_…`; `rk_test_…` or `rk_live_…`). */
  mode: Mode;
  /** The merchant id (`mch_…`) the client was given, if any. */
  account?: string;
  /** `GET /v1/events/{id}` with the client's key: the event, or undefined when the key sees none (404). */
  fetchEvent?: (id: string) => Promise<Event | undefined>;
}

/** Event ids the API answered 404 for, remembered at most: a replayed delivery costs one look-up, not one per replay. */
const MAX_REFUSED = 1_000;

/**
 * The platform key signs every merchant's deliveries, so a valid v2 (or v1a) signature says the
 * service sent the body, not to whom. The body names its recipient (`data.merchant`, `livemode`
 * and `data.mode`), and this checks it is this client's merchant and mode: a delivery captured at
 * another merchant's endpoint, or in the other mode, is refused (`wrong_account`, `wrong_mode`).
 * An endpoint secret (v1) is the endpoint's own, so a delivery verified by it needs no such check.
 *
 * Without `account`, the merchant id is learned once: the first key-verified delivery's event is
 * read back with the client's key (`GET /v1/events/{id}`); the API answers only for the key's own
 * merchant and mode, so a 404 means the delivery was meant for someone else, and a 200 names the
 * merchant, kept for every later delivery.
 */
export class WebhookRecipient {
  private account: string | undefined;
  private readonly lookups = new Map<string, Promise<Event | undefined>>();
  private readonly refused = new Set<string>();

  constructor(private readonly options: RecipientOptions) {
    this.account = options.account;
  }

  /** Checks a key-verified event synchronously: needs the merchant id given, or learned by an earlier `check`. */
  checkSync(event: Event): void {
    this.checkMode(event);
    if (this.account === undefined) {
      throw new SignatureVerificationError(
        'no_account',
        'The signature is valid, but a platform-key signature is the same for every merchant and this client does not know its merchant id yet: ' +
          "pass { account: 'mch_…' } to new Payments, or use constructEventAsync, which looks it up once.",
      );
    }
    this.checkAccount(event, this.account);
  }

  /** Checks a key-verified event, learning the merchant id first when it is not known. */
  async check(event: Event): Promise<void> {
    this.checkMode(event);
    this.checkAccount(event, this.account ?? (await this.learn(event)));
  }

  private checkMode(event: Event): void {
    const { mode } = this.options;
    const named = nameOf(event);
    if (named.livemode !== (mode === 'live') || named.mode !== mode) {
      throw new SignatureVerificationError(
        'wrong_mode',
        `The signature is valid but the event is ${named.livemode === true ? 'a live' : named.livemode === false ? 'a test' : 'not a test nor a live'} event ` +
          `(data.mode ${String(named.mode)}) and this client's API key is ${mode} mode: a delivery meant for the other mode's endpoint.`,
      );
    }
  }

  private checkAccount(event: Event, account: string): void {
    const { merchant } = nameOf(event);
    if (merchant !== account) {
      throw new SignatureVerificationError(
        'wrong_account',
        `The signature is valid but the event is for merchant ${String(merchant)}, not this client's ${account}: a delivery meant for another merchant's endpoint.`,
      );
    }
  }

  /** This client's merchant id, from the API's copy of `event`; refuses when the API has none for this key. */
  private async learn(event: Event): Promise<string> {
    const fetchEvent = this.options.fetchEvent;
    if (!fetchEvent) {
      throw new SignatureVerificationError(
        'no_account',
        "The signature is valid, but a platform-key signature is the same for every merchant: verify with a Payments client (pass { account: 'mch_…' } or let it look its merchant up).",
      );
    }
    const id = event.id;
    if (typeof id !== 'string' || this.refused.has(id)) throw notOurs(id);
    let lookup = this.lookups.get(id);
    if (!lookup) {
      lookup = fetchEvent(id).finally(() => this.lookups.delete(id));
      this.lookups.set(id, lookup);
    }
    const own = await lookup;
    const merchant = own && own.id === id ? nameOf(own).merchant : undefined;
    if (typeof merchant !== 'string') {
      if (this.refused.size >= MAX_REFUSED) this.refused.clear();
      this.refused.add(id);
      throw notOurs(id);
    }
    this.account ??= merchant;
    return this.account;
  }
}

function notOurs(id: unknown): SignatureVerificationError {
  return new SignatureVerificationError(
    'wrong_account',
    `The signature is valid but this client's API key sees no event ${String(id)} (GET /v1/events/{id} answered 404): a delivery meant for another merchant's endpoint.`,
  );
}

/** What a body says about its recipient, read defensively: a verified body is the service's, but may predate a field. */
function nameOf(event: Event): { livemode: unknown; mode: unknown; merchant: unknown } {
  const data: unknown = event.data;
  const field = (name: string): unknown => (typeof data === 'object' && data !== null ? Reflect.get(data, name) : undefined);
  return { livemode: event.livemode, mode: field('mode'), merchant: field('merchant') };
}
