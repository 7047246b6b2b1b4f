import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';

export interface Resource<T> {
  readonly data?: T | undefined;
  readonly error?: ApiError | undefined;
  readonly loading: boolean;
  reload: () => void;
}

/** Loads `load()` when `deps` change (and on `reload`); the last answer wins. */
export function useResource<T>(load: () => Promise<T>, deps: readonly unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ data: previous.data, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: asApiError(error), loading: false }),
    );
    return () => {
      current = false;
    };
    // `deps` are the caller's inputs of `load`: a new one loads again.
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, 'network_error', error instanceof Error ? error.message : String(error));
}

/** Runs one write at a time: `busy` while it runs (buttons disable), its error kept for display. */
export function useAction(): { busy: boolean; error: ApiError | undefined; run(work: () => Promise<void>): Promise<boolean>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = async (work: () => Promise<void>): Promise<boolean> => {
    if (busy) return false;
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (caught) {
      setError(asApiError(caught));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(undefined) };
}
