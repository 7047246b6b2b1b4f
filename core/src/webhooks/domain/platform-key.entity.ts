/**
 * One of the platform's Ed25519 webhook signing keys (v2). Published (listed by
 * `GET /v1/webhook_public_keys`) from `publishedAt`; deliveries are signed with the newest key
 * whose `activeFrom` has passed, so receivers have time to fetch a rotated key before it is used.
 */
export interface PlatformKey {
  readonly id: string;
  /** Raw 32-byte public key, standard base64. */
  readonly publicKey: string;
  /** The raw 32-byte private seed (standard base64), sealed by the SecretBox. */
  readonly privateKeySealed: string;
  readonly publishedAt: Date;
  readonly activeFrom: Date;
  readonly created: Date;
}

/** The key to sign with at `now`: the latest activated one (the later created on a tie). */
export function activePlatformKey(keys: readonly PlatformKey[], now: Date): PlatformKey | undefined {
  let best: PlatformKey | undefined;
  for (const key of keys) {
    if (key.activeFrom.getTime() > now.getTime()) continue;
    if (
      !best ||
      key.activeFrom.getTime() > best.activeFrom.getTime() ||
      (key.activeFrom.getTime() === best.activeFrom.getTime() && key.created.getTime() >= best.created.getTime())
    )
      best = key;
  }
  return best;
}
