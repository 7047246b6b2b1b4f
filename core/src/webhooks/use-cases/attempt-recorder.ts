import type { DeliveryAttemptRecord, WebhookDeliveryRepository } from '../ports/webhook-delivery.repository.port';

interface Waiting {
  readonly record: DeliveryAttemptRecord;
  readonly resolve: (held: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/** Records one shared write takes at most (the repository splits larger ones into statements). */
const MAX_SHARED = 100;
export interface AttemptRecorderDeps {
  readonly deliveries: WebhookDeliveryRepository;
}

/**
 * Stores the relay's attempts as their sends finish, many to a transaction (a group commit): a
 * record that finds no write under way is written at once; those that finish meanwhile wait for
 * it and go together in the next. A commit per delivery was most of the relay's database time.
 *
 * Each record still succeeds or fails on its own: when a shared write throws (nothing of it is
 * stored), each of its records is written again in a transaction of its own, so a record that
 * cannot be stored fails its own delivery only, and the others' outcomes are kept.
 */
export class AttemptRecorder {
  private readonly waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly deps: AttemptRecorderDeps) {}

  /** Resolves once the record is stored (false: the lease was no longer the delivery's); rejects when its own write failed. */
  record(record: DeliveryAttemptRecord): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ record, resolve, reject });
      if (!this.writing) void this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) await this.write(this.waiting.splice(0, MAX_SHARED));
    } finally {
      this.writing = false;
    }
  }

  /** Never throws: every waiting record is settled. */
  private async write(batch: readonly Waiting[]): Promise<void> {
    if (batch.length > 1) {
      let held: boolean[] | undefined;
      try {
        held = await this.deps.deliveries.recordAttempts(batch.map((waiting) => waiting.record));
      } catch {
        // Which record broke the shared write is unknown: each on its own, below.
      }
      if (held !== undefined) {
        const answers = held;
        batch.forEach((waiting, index) => waiting.resolve(answers[index] === true));
        return;
      }
    }
    await Promise.all(
      batch.map(({ record, resolve, reject }) => this.deps.deliveries.recordAttempt(record.next, record.heldUntil, record.attempt).then(resolve, reject)),
    );
  }
}
