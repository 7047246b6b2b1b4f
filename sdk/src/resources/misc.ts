import type { RequestSender } from '../http/request-sender.js';
import { listPromise, type ListPromise } from '../pagination.js';
import type { Balance, Event, EventListParams, FxQuote, FxQuoteParams, List, RequestOptions, WebhookPublicKey } from '../types.js';
import { Resource, segment } from './resource.js';

/** `/v1/balance`. */
export class BalanceResource extends Resource {
  retrieve(options?: RequestOptions): Promise<Balance> {
    return this.request({ method: 'GET', path: 'v1/balance', ...(options ? { options } : {}) });
  }
}

/** `/v1/fx/quotes`. */
export class FxQuotes extends Resource {
  /** An indicative quote from `from` to `to`; with `amount`, the estimated settlement amount too. */
  retrieve(params: FxQuoteParams, options?: RequestOptions): Promise<FxQuote> {
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
   * The event with this id. The API has no route for one event, so this pages through
   * `GET /v1/events` (newest first) until it finds it: cheap for recent events, slow for old ones.
   * Resolves to undefined when no event has the id.
   */
  async retrieve(id: string, options?: RequestOptions & { maxPages?: number }): Promise<Event | undefined> {
    segment(id);
    const maxPages = options?.maxPages ?? 20;
    let pages = 0;
    let startingAfter: string | undefined;
    for (;;) {
      const page: List<Event> = await this.request({
        method: 'GET',
        path: 'v1/events',
        query: { limit: 100, starting_after: startingAfter },
        ...(options ? { options } : {}),
      });
      const found = page.data.find((event) => event.id === id);
      pages += 1;
      if (found) return found;
      const last = page.data[page.data.length - 1];
      if (!page.has_more || !last || pages >= maxPages) return undefined;
      startingAfter = last.id;
    }
  }
}

/** `/v1/webhook_public_keys`: the Ed25519 keys webhook `v2` signatures are made with. */
export class WebhookPublicKeys extends Resource {
  list(options?: RequestOptions): Promise<List<WebhookPublicKey>> {
    return this.request({ method: 'GET', path: 'v1/webhook_public_keys', ...(options ? { options } : {}) });
  }
}
