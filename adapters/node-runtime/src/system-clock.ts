import type { Clock } from '@payments/core';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
