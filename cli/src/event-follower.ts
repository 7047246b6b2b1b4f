import type { Event } from '@payments/sdk';

/**
 * Following `GET /v1/events` (newest first) from a cursor, without missing an event.
 *
 * The list is ordered by a storage sequence, and a transaction that took its sequence number
 * first may commit after a later one: an event can appear just *below* the cursor after the cursor
 * moved past that spot. So each poll also looks back a short window below the cursor and takes
 * any event not handled yet; `seen` remembers the recently handled ids to make that safe.
 */
export interface FollowState {
  /** The newest event handled. */
  cursor?: string;
  /** Recently handled ids, newest last (capped at MAX_SEEN). */
  seen: string[];
}

/** How far below the cursor a poll looks for late events (by the events' `created`). */
export const LOOKBACK_MS = 60_000;
export const MAX_SEEN = 1000;
/** How many new events one poll collects at most, so a stale cursor cannot exhaust memory. */
export const MAX_EVENTS_PER_POLL = 10_000;

export interface Pending {
  event: Event;
  /** False for a late event found below the cursor: handling it must not move the cursor back. */
  advancesCursor: boolean;
}

/** The events to handle now, oldest first. */
export async function pollEvents(events: AsyncIterable<Event>, state: FollowState): Promise<Pending[]> {
  const seen = new Set(state.seen);
  const found: Pending[] = [];
  let cursorTime: number | undefined;
  for await (const event of events) {
    if (cursorTime === undefined) {
      if (state.cursor !== undefined && event.id === state.cursor) {
        cursorTime = Date.parse(event.created);
        continue;
      }
      if (!seen.has(event.id)) found.push({ event, advancesCursor: true });
      if (found.length >= MAX_EVENTS_PER_POLL) break;
      continue;
    }
    if (Date.parse(event.created) < cursorTime - LOOKBACK_MS || found.length >= MAX_EVENTS_PER_POLL) break;
    if (!seen.has(event.id)) found.push({ event, advancesCursor: false });
  }
  return found.reverse();
}

/**
 * The ids at and just below a cursor a run starts from (first run, `--since`): already "handled",
 * so the look-back does not forward events from before the start.
 */
export async function baseline(events: AsyncIterable<Event>, cursor: string): Promise<string[]> {
  const ids: string[] = [];
  let cursorTime: number | undefined;
  for await (const event of events) {
    if (cursorTime === undefined) {
      if (event.id !== cursor) continue;
      cursorTime = Date.parse(event.created);
    } else if (Date.parse(event.created) < cursorTime - LOOKBACK_MS || ids.length >= MAX_SEEN) {
      break;
    }
    ids.push(event.id);
  }
  return ids.reverse();
}

/** The state once `pending` was handled (delivered, or skipped by the type filter). */
export function handled(state: FollowState, pending: Pending): FollowState {
  const seen = [...state.seen, pending.event.id].slice(-MAX_SEEN);
  return { cursor: pending.advancesCursor ? pending.event.id : state.cursor, seen };
}
