import { createHash } from 'node:crypto';
import { CoreError } from '@payments/core';
import type { RedisClient } from './redis-client';

/** The CoreError every Redis failure becomes: callers retry later, they never see a driver error. */
export function redisUnavailable(cause: unknown): CoreError {
  return new CoreError('api_error', 'unavailable', 'A shared service (Redis) is unavailable; retry shortly.', {
    retryAfterSeconds: 1,
    cause,
  });
}

/**
 * Runs one Redis operation with a deadline. node-redis times a command out only while it waits to
 * be written; once sent to a server that stopped answering it would wait for TCP to give up.
 */
export async function callRedis<T>(operation: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const pending = Promise.resolve().then(operation);
  // A reply after the deadline, or its rejection, has nobody left to hear it.
  pending.catch(() => undefined);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([pending, deadline]);
  } catch (error) {
    throw redisUnavailable(error);
  } finally {
    clearTimeout(timer);
  }
}

/** A Lua script sent by digest (EVALSHA), and in full only when the server does not know it yet. */
export class RedisScript {
  private readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClient, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await client.evalSha(this.sha, { keys, arguments: args });
    } catch (error) {
      // A restarted or flushed Redis forgets loaded scripts; EVAL loads it again.
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return client.eval(this.source, { keys, arguments: args });
      }
      throw error;
    }
  }

  /** Runs a script that answers an array of integers. */
  async integers(client: RedisClient, keys: string[], args: string[]): Promise<number[]> {
    const reply = await this.run(client, keys, args);
    if (Array.isArray(reply)) {
      const items: unknown[] = reply;
      if (items.every((item): item is number => typeof item === 'number')) return items;
    }
    throw new Error('The script did not answer an array of integers.');
  }
}
