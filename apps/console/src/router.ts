import { useEffect, useState } from 'preact/hooks';

/** Where the console is served; every page is a path below it, the API is under /dashboard/v1. */
export const BASE = '/dashboard';

const listeners = new Set<() => void>();

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const target = path.startsWith(BASE) ? path : `${BASE}${path}`;
  if (options.replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** The current page's path below BASE ("/payments/pi_…") and its query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(location.search) };
}

/** Matches "/payments/:id" against a path; the named parts, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.replace(/\/$/, '').split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[index]);
    else if (part !== got[index]) return undefined;
  }
  return params;
}

/** A link that moves within the console without reloading the page. */
export function linkHandler(path: string): (event: MouseEvent) => void {
  return (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(path);
  };
}

/**
 * A list's filters, kept in the page's query so a reload or a shared link shows the same view:
 * the values of `keys` (empty when absent), and `apply`, which writes them (empty ones left out) as
 * a new history entry, so Back returns to the view before.
 */
export function useQueryFilters<K extends string>(keys: readonly K[]): { values: Record<K, string>; apply: (next: Partial<Record<K, string>>) => void } {
  const { path, query } = useLocation();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- every key of `keys` is set on the next line
  const values = {} as Record<K, string>;
  for (const key of keys) values[key] = query.get(key) ?? '';
  const apply = (next: Partial<Record<K, string>>) => {
    const params = new URLSearchParams();
    for (const key of keys) {
      const value = key in next ? next[key] : values[key];
      if (value) params.set(key, value);
    }
    const text = params.toString();
    navigate(text ? `${path}?${text}` : path);
  };
  return { values, apply };
}
