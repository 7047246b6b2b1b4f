import { token } from '../../common';
/** One dashboard write: who did what to which object, and when. */
export interface AuditEntry {
  readonly id: string;
  readonly merchantId: string;
  readonly userId: string;
  /** The dashboard action and what it did, e.g. `api_keys.write` / `api_key.revoked`. */
  readonly action: string;
  readonly objectType: string;
  readonly objectId?: string;
  /** Non-secret details (never a secret, key, code or full account number). */
  readonly details?: Readonly<Record<string, string | number | boolean>>;
  readonly created: Date;
}

/** The audit trail of dashboard writes; append only. */
export interface AuditLog {
  /** Appends an entry; call it inside the unit of work of the write it records. */
  record(entry: AuditEntry): Promise<void>;
  /** The merchant's entries, newest first (for tests and later routes). */
  listForMerchant(merchantId: string, limit: number): Promise<AuditEntry[]>;
}
export const AuditLog = token<AuditLog>('AuditLog');
