import { token } from './token';
/** The time, from outside core so tests can hold it still (`FakeClock`). */
export interface Clock {
  /** The current instant. */
  now(): Date;
}
export const Clock = token<Clock>('Clock');
