import type { Clock } from '../../common';
import { isCoreError } from '../../common';
import type { User } from '../domain/user.entity';
import type { FailureCounter, FailureWindow } from '../ports/failure-counter.port';
import { releaseFailureSlots, reserveFailureSlots, SIGN_IN_FAILURE_WINDOW } from './sign-in-throttle';
import type { VerifyOneTimeCode } from './verify-one-time-code.use-case';
export interface StepUpDeps {
  readonly verifyCode: VerifyOneTimeCode;
  readonly failures: FailureCounter;
  readonly clock: Clock;
  /** How many failures per window; the sign-in window unless a test sets its own. */
  readonly window?: FailureWindow;
}

/**
 * The second check of a sensitive dashboard action (payout destinations, adding a member, granting
 * admin or owner, resetting a member's second factor): the one-time code of the person acting,
 * with wrong codes counted per user and throttled like sign-in. A stolen session alone then
 * cannot do these things, nor guess its way to a code.
 */
export class StepUp {
  constructor(private readonly deps: StepUpDeps) {}

  /**
   * Runs `action`, which calls `verify` before it writes anything. A slot in the actor's wrong-code
   * count is taken first, atomically (429 `rate_limited` with the wait once the count is full, so
   * parallel guesses get no more tries than the limit). A missing, wrong or reused code (403
   * `mfa_code_invalid`) keeps the slot as a failure; any other outcome gives it back. A right code
   * forgets nothing: one code seen over a shoulder does not buy a fresh run of guesses.
   */
  async guard<T>(actor: User, action: () => Promise<T>): Promise<T> {
    const slots = await reserveFailureSlots(
      this.deps.failures,
      [stepUpKey(actor)],
      this.deps.clock.now(),
      this.deps.window ?? SIGN_IN_FAILURE_WINDOW,
      'Too many wrong one-time codes; try again later.',
    );
    // A slot that cannot be given back (the shared store just went away) costs the user one
    // counted failure; failing the answer of an action that already committed would cost more.
    const giveBack = () => releaseFailureSlots(this.deps.failures, slots).catch(() => undefined);
    let result: T;
    try {
      result = await action();
    } catch (error) {
      if (!(isCoreError(error) && error.code === 'mfa_code_invalid')) await giveBack();
      throw error;
    }
    await giveBack();
    return result;
  }

  /** Checks and spends the actor's one-time code; 403 `mfa_code_invalid` when it is missing, wrong or used. Call it inside `guard`. */
  async verify(actor: User, code: string | undefined): Promise<void> {
    await this.deps.verifyCode.execute({ merchantId: actor.merchantId, userId: actor.id, code });
  }
}

function stepUpKey(actor: User): string {
  return `step_up:user:${actor.id}`;
}
