import type { AuditEntry, AuditLog } from '../ports/audit-log.port';
import type { Clock } from '../../shared';
import type { RandomSource } from '../../shared';
import { randomString } from '../../shared';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** What a dashboard use case says about the write it made. */
export type AuditFact = Omit<AuditEntry, 'id' | 'created'>;

/** Records who did what; call it inside the unit of work of the write so both commit together. */
export class AuditRecorder {
  constructor(
    private readonly log: AuditLog,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  record(fact: AuditFact): Promise<void> {
    return this.log.record({ ...fact, id: `aud_${randomString(this.random, BASE32, 26)}`, created: this.clock.now() });
  }
}
