import type { Clock, RandomSource } from '../../common';
import { randomString } from '../../common';
import type { AuditEntry, AuditLog } from '../ports/audit-log.port';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** What a dashboard use case says about the write it made. */
export type AuditFact = Omit<AuditEntry, 'id' | 'created'>;
/** Who acted: a dashboard user of a merchant. */
export interface AuditActor {
  readonly id: string;
  readonly merchantId: string;
}

export interface AuditRecorderDeps {
  readonly log: AuditLog;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** Records who did what; call it inside the unit of work of the write so both commit together. */
export class AuditRecorder {
  constructor(private readonly deps: AuditRecorderDeps) {}

  record(fact: AuditFact): Promise<void> {
    return this.deps.log.record({ ...fact, id: `aud_${randomString(this.deps.random, BASE32, 26)}`, created: this.deps.clock.now() });
  }

  /** Records that the dashboard user `actor` did `action` to an object of their merchant. */
  recordAction(actor: AuditActor, action: string, object: { readonly type: string; readonly id: string }, details?: AuditFact['details']): Promise<void> {
    return this.record({
      merchantId: actor.merchantId,
      userId: actor.id,
      action,
      objectType: object.type,
      objectId: object.id,
      ...(details ? { details } : {}),
    });
  }
}
