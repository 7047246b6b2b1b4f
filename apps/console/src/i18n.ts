import { useEffect, useState } from 'preact/hooks';
import { EN } from './strings/en';
import { TH } from './strings/th';

export const LANGUAGES = ['en', 'th'] as const;
export type Language = (typeof LANGUAGES)[number];

const DICTIONARIES: Readonly<Record<Language, Readonly<Record<string, string>>>> = { en: EN, th: TH };
const LANGUAGE_KEY = 'payments-console-language';

function initialLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  const wanted = stored ?? navigator.languages.find((tag) => /^(en|th)\b/i.test(tag)) ?? 'en';
  return wanted.toLowerCase().startsWith('th') ? 'th' : 'en';
}

let current: Language = initialLanguage();
const listeners = new Set<() => void>();

export function language(): Language {
  return current;
}

export function setLanguage(next: Language): void {
  current = next;
  localStorage.setItem(LANGUAGE_KEY, next);
  document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

/** Re-renders the caller when the language changes. */
export function useLanguage(): Language {
  const [, setTick] = useState(0);
  useEffect(() => {
    document.documentElement.lang = current;
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return current;
}

/**
 * The words for `key` in the chosen language, `{name}` replaced from `params`. A key neither
 * dictionary has (a status the console does not know yet) shows `fallback`, else the key.
 */
export function t(key: string, params: Readonly<Record<string, string | number>> = {}, fallback?: string): string {
  const text = DICTIONARIES[current][key] ?? EN[key] ?? fallback ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
