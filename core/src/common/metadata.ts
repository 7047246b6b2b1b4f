import { invalidParameter } from './core-error';

export type Metadata = Readonly<Record<string, string>>;

export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/** Metadata is the merchant's own string map; limits keep one intent from carrying a document. */
export function validateMetadata(metadata: Record<string, unknown>): Metadata {
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_LIMITS.keys) {
    throw invalidParameter('metadata', `metadata may hold at most ${METADATA_LIMITS.keys} keys.`);
  }
  const checked: [string, string][] = [];
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) {
      throw invalidParameter(`metadata.${key}`, `metadata keys must be 1 to ${METADATA_LIMITS.keyLength} characters.`);
    }
    if (typeof value !== 'string') {
      throw invalidParameter(`metadata.${key}`, 'metadata values must be strings.');
    }
    if (value.length > METADATA_LIMITS.valueLength) {
      throw invalidParameter(`metadata.${key}`, `metadata values must be at most ${METADATA_LIMITS.valueLength} characters.`);
    }
    checked.push([key, value]);
  }
  return Object.fromEntries(checked);
}
