import type { RandomSource } from '../../common';
import { domainEvent, type DomainEvent } from '../../webhooks';
import type { Dispute } from '../domain/dispute.entity';

/** The three dispute event types. */
export type DisputeEventType = 'dispute.opened' | 'dispute.updated' | 'dispute.closed';

/** The notice of a dispute change: `{id, object, status, merchant, mode}`, never the object itself. */
export function disputeEvent(dispute: Dispute, type: DisputeEventType, random: RandomSource, now: Date): DomainEvent {
  return domainEvent(type, 'dispute', dispute, random, now);
}

/** Limits of the evidence a merchant sends (merged key by key into what the dispute holds). */
export const DISPUTE_EVIDENCE_LIMITS = { keys: 50, keyLength: 40, valueLength: 5000 } as const;
