import type { List, WebhookPublicKey } from '../types.js';

/**
 * How long a key that left `GET /v1/webhook_public_keys` is still trusted: a delivery signed just
 * before the key was withdrawn stays valid for the timestamp tolerance (300 s), and may wait in
 * the receiver's queue meanwhile; ten minutes covers that and some clock skew. It is not longer
 * because a key may have been withdrawn for leaking.
 */
export const REMOVED_KEY_GRACE_SECONDS = 600;

/** After this long the key list is fetched again even when every key id is known, so withdrawals are noticed. */
export const PLATFORM_KEYS_MAX_AGE_SECONDS = 3600;

/**
 * Fetches for key ids not held are at least this far apart, whatever ids the deliveries name: a
 * flood of deliveries naming made-up keys is at most one key fetch a second.
 */
const MIN_REFETCH_MS = 1_000;

/**
 * A key id a fetch did not list is not looked for again for this long. A key id never looked for
 * is (a key published since the last fetch, or a new `payments listen` run's key), once the
 * interval above has passed.
 */
const UNKNOWN_KEY_RETRY_MS = 10_000;

/** Key ids remembered as not listed, at most: made-up ids cannot grow the map without bound. */
const MAX_REMEMBERED_UNKNOWN = 1_000;

/** Waits after failed fetches: 250 ms doubling to at most 5 s, so an outage is retried soon but not hammered. */
const FAILURE_BACKOFF_MS = { initial: 250, max: 5_000 };

interface CachedKey {
  publicKey: string;
  /** When a fetch first no longer listed it. */
  removedAt: number | undefined;
}

/**
 * The platform's public keys by id, fetched from the API when a delivery needs one not held yet.
 * Callers that need a fetch at the same moment share one; a failed fetch changes nothing held
 * (the next caller retries after a short backoff); a key the list drops stays trusted for
 * `REMOVED_KEY_GRACE_SECONDS`.
 */
export class PlatformKeyCache {
  private readonly keys = new Map<string, CachedKey>();
  /** Key ids a fetch did not list, and when. */
  private readonly unlisted = new Map<string, number>();
  private fetchedAt: number | undefined;
  private inFlight: Promise<void> | undefined;
  private failures = 0;
  private retryAt = 0;

  constructor(
    private readonly fetchKeys: () => Promise<List<WebhookPublicKey>>,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The keys to verify with now: every listed key, and withdrawn ones within their grace. */
  trusted(): Record<string, string> {
    const now = this.now();
    const out: Record<string, string> = {};
    for (const [id, key] of this.keys) {
      if (this.isTrusted(key, now)) out[id] = key.publicKey;
      else this.keys.delete(id);
    }
    return out;
  }

  /**
   * Makes the keys fit to check a delivery by key `kid` (undefined: by any key, for Standard
   * Webhooks' `v1a`, which names none). Fetches when that key is not held or the list is old;
   * rejects with the fetch's error only when there is nothing to verify with.
   */
  async ensure(kid: string | undefined): Promise<void> {
    const now = this.now();
    const held = kid === undefined ? Object.keys(this.trusted()).length > 0 : this.holds(kid, now);
    const age = this.fetchedAt === undefined ? Infinity : now - this.fetchedAt;
    if (held) {
      if (age < PLATFORM_KEYS_MAX_AGE_SECONDS * 1000 || this.inFlight || now < this.retryAt) return;
      // Old but usable: refresh, and keep using what is held if the API cannot answer now.
      await this.refresh().catch(() => undefined);
      return;
    }
    if (age < MIN_REFETCH_MS) return;
    const unlistedAt = kid === undefined ? undefined : this.unlisted.get(kid);
    if (unlistedAt !== undefined && now - unlistedAt < UNKNOWN_KEY_RETRY_MS) return;
    await this.refresh();
    if (kid !== undefined && !this.holds(kid, this.now())) {
      if (this.unlisted.size >= MAX_REMEMBERED_UNKNOWN) this.unlisted.clear();
      this.unlisted.set(kid, this.now());
    }
  }

  /** Whether a fetch now could tell more than the last one (it is past the refetch interval). */
  mayRefresh(): boolean {
    return this.fetchedAt === undefined || this.now() - this.fetchedAt >= MIN_REFETCH_MS;
  }

  /** Fetches the list, sharing a fetch already under way. */
  refresh(): Promise<void> {
    this.inFlight ??= this.fetchAfterBackoff().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchAfterBackoff(): Promise<void> {
    const wait = this.retryAt - this.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    let list: List<WebhookPublicKey>;
    try {
      list = await this.fetchKeys();
    } catch (error) {
      this.failures += 1;
      this.retryAt = this.now() + Math.min(FAILURE_BACKOFF_MS.max, FAILURE_BACKOFF_MS.initial * 2 ** (this.failures - 1));
      throw error;
    }
    const now = this.now();
    this.failures = 0;
    this.retryAt = 0;
    this.fetchedAt = now;
    const listed = new Set(list.data.map((key) => key.id));
    for (const [id, key] of this.keys) if (!listed.has(id)) key.removedAt ??= now;
    for (const key of list.data) this.keys.set(key.id, { publicKey: key.public_key, removedAt: undefined });
  }

  private holds(kid: string, now: number): boolean {
    const key = this.keys.get(kid);
    return key !== undefined && this.isTrusted(key, now);
  }

  private isTrusted(key: CachedKey, now: number): boolean {
    return key.removedAt === undefined || now - key.removedAt < REMOVED_KEY_GRACE_SECONDS * 1000;
  }
}
