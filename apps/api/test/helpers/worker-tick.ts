import { ReleaseFunds, ReportChannelSettlements } from '@payments/core';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import type { FakeClock } from '@payments/in-memory';
import type { TestApp } from './test-app';

/**
 * One worker tick of the jobs a paid intent passes through on its way to available, a second after
 * the last: the simulator settles orders paid a tick ago, the channel settlement report makes the
 * intent `channel_settled`, and the release timer books pending → available.
 */
export function moneyTick(app: () => TestApp, clock: FakeClock): () => Promise<void> {
  return async () => {
    clock.advance(1000);
    const { app: container } = app();
    await container.get(SimulatorPaymentChannel).tick(500);
    await container.get(ReportChannelSettlements).execute({ limit: 500 });
    await container.get(ReleaseFunds).execute({ limit: 500 });
  };
}
