import { isOneOf } from '@payments/core';
import { LANGUAGES, type Language } from './strings';

/**
 * The payer's language from `Accept-Language` (RFC 9110 §12.5.4): the highest-weighted range
 * whose primary subtag we have a catalogue for; English when none matches or the header is absent.
 */
export function pickLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  const ranges = header
    .split(',')
    .slice(0, 20) // a payer's browser sends a handful; a longer header earns no more work
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((range) => range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const range of ranges) {
    if (isOneOf(LANGUAGES, range.primary)) return range.primary;
  }
  return 'en';
}
