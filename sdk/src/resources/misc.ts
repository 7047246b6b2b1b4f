import { NotFoundError } from '../errors.js';
import type { ApiResponse, RequestSender } from '../http/request-sender.js';
import { listPromise, type ListPromise } from '../pagination.js';
import type { Balance, Event, EventListParams, FxQuote, FxQuoteParams, List, RequestOptions, WebhookPublicKey } from '../types.js';
import { Resource, segment } from './resource.js';

/** `/v1/balance`. */
export class BalanceResource extends Resource {
  retrieve(options?: RequestOptions): Promise<ApiResponse<Balance>> {
    return this.request({ method: 'GET', path: 'v1/balance', ...(options ? { options } : {}) });
  }
}

/** `/v1/fx/quotes`. */
export class FxQuotes extends Resource {
  /** An indicative quote from `from` to `to`; with `amount`, the estimated settlement amount too. */
  retrieve(params: FxQuoteParams, options?: RequestOptions): Promise<ApiResponse<FxQuote>> {
    return this.request({ method: 'GET', path: 'v1/fx/quotes', query: { ...params }, ...(options ? { options } : {}) });
  }
}

/** `payments.fx`: FX quotes. */
export class Fx {
  readonly quotes: FxQuotes;
  constructor(sender: RequestSender) {
    this.quotes = new FxQuotes(sender);
  }
}

/** `/v1/events`: the events webhooks deliver, of the key's mode, newest first. */
export class Events extends Resource {
  /** Newest first. Await it for one page, or `for await` over every event (to fill gaps in deliveries). */
  list(params: EventListParams = {}, options?: RequestOptions): ListPromise<Event> {
    return listPromise(params, (startingAfter) =>
      this.request({ method: 'GET', path: 'v1/events', query: { ...params, starting_after: startingAfter }, ...(options ? { options } : {}) }),
    );
  }

  /**
   * The event with this id (`GET /v1/events/{id}`), its body as a webhook delivery carried it.
   * Resolves to undefined when the key sees no such event (the other mode's events included);
   * other failures throw as usual.
   */
  async retrieve(id: string, options?: RequestOptions): Promise<ApiResponse<Event> | undefined> {
    try {
      return await this.request<Event>({ method: 'GET', path: `v1/events/${segment(id)}`, ...(options ? { options } : {}) });
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
}

/** `/v1/webhook_public_keys`: the Ed25519 keys webhook `v2` signatures are made with. */
export class WebhookPublicKeys extends Resource {
  list(options?: RequestOptions): Promise<ApiResponse<List<WebhookPublicKey>>> {
    return this.request({ method: 'GET', path: 'v1/webhook_public_keys', ...(options ? { options } : {}) });
  }
}
