import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '@payments/core';
import { BoundedWorkQueue } from './bounded-work-queue';

export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * OWASP Password Storage Cheat Sheet (scrypt): N=2^17, r=8, p=1 uses 128 MiB and is the
 * recommended minimum. Tests may pass lower parameters; stored hashes name their own.
 */
export const OWASP_SCRYPT: ScryptParameters = { N: 2 ** 17, r: 8, p: 1 };

const KEY_LENGTH = 32;

/** libuv's thread pool: its size is fixed when the process starts (4 unless UV_THREADPOOL_SIZE says otherwise). */
export function libuvThreadPoolSize(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const size = Number(env['UV_THREADPOOL_SIZE']);
  return Number.isInteger(size) && size > 0 ? size : 4;
}

export interface PasswordHashQueueOptions {
  /** Hashes computed at once (default: half of libuv's thread pool, at least 1). */
  readonly concurrency?: number;
  /** Hashes waiting for a turn before more are refused with 503 (default 64). */
  readonly maxWaiting?: number;
}

const DEFAULT_MAX_WAITING = 64;

function derive(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * Stored form: `scrypt$N$r$p$<salt base64>$<hash base64>`, so parameters can be raised later.
 *
 * Every hash runs through a bounded queue. scrypt runs on libuv's thread pool, which DNS lookups
 * (every webhook delivery, the rate source), file access and the other async crypto share: a
 * flood of sign-ins computing unbounded hashes would take every thread, and at N=2^17 128 MiB each.
 * At most half the pool hashes at once; a few dozen wait; past that a sign-in is 503 with
 * Retry-After rather than a growing backlog.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  private readonly queue: BoundedWorkQueue;

  constructor(
    private readonly params: ScryptParameters = OWASP_SCRYPT,
    queue: PasswordHashQueueOptions = {},
  ) {
    this.queue = new BoundedWorkQueue({
      concurrency: queue.concurrency ?? Math.max(1, Math.floor(libuvThreadPoolSize() / 2)),
      maxWaiting: queue.maxWaiting ?? DEFAULT_MAX_WAITING,
      busyMessage: 'Too many sign-ins are being checked right now; retry shortly.',
    });
  }

  /** Hashes running and waiting now. */
  get load(): { running: number; waiting: number } {
    return this.queue.load;
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.queue.run(() => derive(password, salt, this.params));
    const { N, r, p } = this.params;
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [algorithm, N, r, p, salt, hash] = stored.split('$');
    if (algorithm !== 'scrypt' || !N || !r || !p || !salt || !hash) return false;
    const expected = Buffer.from(hash, 'base64');
    const key = await this.queue.run(() => derive(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) }));
    return key.length === expected.length && timingSafeEqual(key, expected);
  }
}
