import type { Mode } from '../../common';
import { token } from '../../common';
import type { RequestKey } from '../domain/request-key';

/** Keys are scoped to merchant + mode + caller: a test key never replays a live answer. */
export interface IdempotencyScope extends RequestKey {
  readonly merchantId: string;
  readonly mode: Mode;
}

/** The answer replayed for a repeated request: HTTP status and the exact body bytes. */
export interface StoredResponse {
  readonly status: number;
  readonly body: string;
}

/** Proof that this request owns the key; completing or releasing needs it. */
export interface IdempotencyClaim {
  readonly scope: IdempotencyScope;
  readonly fingerprint: string;
  readonly token: string;
}

/** A key somebody else holds: answered already, or still running. */
export type KnownKey =
  | { readonly outcome: 'completed'; readonly fingerprint: string; readonly response: StoredResponse }
  /**
   * `fingerprint` is absent when the owner's claim is not committed yet (it is part of a
   * transaction still running elsewhere, whose row no one else can read).
   */
  | { readonly outcome: 'in_flight'; readonly fingerprint?: string }
  /**
   * Unfinished, with a recovery point and no live lease (its request failed, or its process died,
   * after binding an object to it): a retry with this fingerprint claims it and resumes.
   */
  | { readonly outcome: 'resumable'; readonly fingerprint: string };

export type ClaimResult =
  | {
      readonly outcome: 'claimed';
      readonly claim: IdempotencyClaim;
      /** The object an earlier claim of this key bound to it, when this claim took over a resumable key. */
      readonly recoveryPoint?: string;
    }
  | KnownKey;

export interface ClaimRequest {
  readonly scope: IdempotencyScope;
  readonly fingerprint: string;
  /** A fresh random token naming this attempt. */
  readonly token: string;
  readonly now: Date;
  /** How long an unfinished claim blocks others; after that its process is presumed dead. */
  readonly leaseMs: number;
  /** How long a key is remembered at all. */
  readonly retentionMs: number;
}

export interface IdempotencyStore {
  /**
   * Reads the key without writing: its answer, or that it is in flight. Undefined when the key is
   * free to claim (unknown, older than its retention, or its claim's lease ran out). It decides
   * nothing: a free key must still be claimed, and the claim may find it taken meanwhile.
   */
  find(scope: IdempotencyScope, now: Date): Promise<KnownKey | undefined>;
  /**
   * Claims the key atomically: exactly one of any number of concurrent callers gets `claimed`.
   * A key whose claim lease ran out is taken over: anew when nothing was bound to it, with its
   * recovery point (and only by the same fingerprint; another is answered `resumable`) when
   * something was. A key older than its retention is forgotten and claimed anew. Inside a unit of work the
   * claim commits or rolls back with it, and a claim another unit of work holds uncommitted is
   * answered `in_flight` at once, never waited for.
   */
  claim(request: ClaimRequest): Promise<ClaimResult>;
  /**
   * Records the answer. Call it inside the unit of work of the request's writes so both commit
   * together. Returns false when the claim was lost (taken over after its lease ran out); the
   * caller must then roll back.
   */
  complete(claim: IdempotencyClaim, response: StoredResponse, now: Date): Promise<boolean>;
  /**
   * Binds an object to the claim (its recovery point). Call it inside the unit of work that made
   * the object, so both commit together. Returns false when the claim was lost; the caller must
   * then roll back.
   */
  bind(claim: IdempotencyClaim, recoveryPoint: string): Promise<boolean>;
  /**
   * Forgets an unfinished claim so a corrected retry with the same key can run; a claim with a
   * recovery point is never forgotten: only its lease is dropped, so a retry resumes at once.
   */
  release(claim: IdempotencyClaim): Promise<void>;
  /** Deletes keys older than their retention; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
export const IdempotencyStore = token<IdempotencyStore>('IdempotencyStore');
