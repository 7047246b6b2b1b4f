import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Mode, Session, Settings } from './types';

/** What every page knows: who is signed in, their account, and the mode they are looking at. */
export interface ConsoleState {
  readonly session: Session;
  readonly settings: Settings;
  readonly mode: Mode;
  setMode: (mode: Mode) => void;
  /** Whether the role may perform an action of the role table (the API refuses the rest with 403). */
  can: (action: string) => boolean;
  reloadSettings: () => void;
}

export const ConsoleContext = createContext<ConsoleState | undefined>(undefined);

export function useConsole(): ConsoleState {
  const state = useContext(ConsoleContext);
  if (!state) throw new Error('useConsole outside a signed-in page');
  return state;
}

const MODE_KEY = 'payments-console-mode';

export function storedMode(): Mode {
  return localStorage.getItem(MODE_KEY) === 'live' ? 'live' : 'test';
}

export function storeMode(mode: Mode): void {
  localStorage.setItem(MODE_KEY, mode);
}
