import type { Clock } from '@payments/core';

/** A clock that moves only when told: tests of timers and expiry use it. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date = new Date('2026-09-01T00:00:00Z')) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(date: Date): void {
    this.current = date.getTime();
  }
}
