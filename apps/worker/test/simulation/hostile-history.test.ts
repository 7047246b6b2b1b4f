import test from 'ava';
import { runHostileHistory, StepFailure } from './hostile-history';

/**
 * The hostile-history simulator (./hostile-history.ts). `npm test` runs a short fixed seed set;
 * `npm run test:simulation` runs the long one (docs/operations.md, "The hostile-history
 * simulator"). SIM_SEEDS: a count N (seeds 1 … N) or a comma-separated list; SIM_STEPS: steps
 * per seed; SIM_SEED replays one seed alone.
 */

function seeds(): number[] {
  if (process.env.SIM_SEED) return [Number(process.env.SIM_SEED)];
  const spec = process.env.SIM_SEEDS ?? '1,2,3';
  if (/^\d+$/.test(spec)) return Array.from({ length: Number(spec) }, (_, index) => index + 1);
  return spec.split(',').map((seed) => Number(seed.trim()));
}

const steps = Number(process.env.SIM_STEPS ?? 60);
for (const seed of seeds()) {
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(steps) || steps < 1) throw new Error(`SIM_SEEDS/SIM_SEED/SIM_STEPS: ${String(seed)}, ${steps}`);
  test.serial(`seed ${seed}, ${steps} steps: no 5xx, the ledger verifies, money adds up, and ordinary merchants keep settling`, async (t) => {
    t.log(`seed ${seed} (replay: SIM_SEED=${seed} SIM_STEPS=${steps} npm run test:simulation)`);
    try {
      const summary = await runHostileHistory(seed, steps);
      t.log(
        `seed ${seed}: ${summary.steps} steps, ${summary.ticks} worker passes, ${(summary.ms / 1000).toFixed(1)} s; reached ${JSON.stringify(summary.reached)}; money compositions ${JSON.stringify(summary.compositions)}; items failing at the end ${JSON.stringify(summary.failingItems)}`,
      );
      t.pass();
    } catch (error) {
      if (!(error instanceof StepFailure)) throw error;
      t.fail(`${error.message}\nreplay: SIM_SEED=${seed} SIM_STEPS=${steps} npm run test:simulation`);
    }
  });
}
