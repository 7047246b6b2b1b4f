import { createServer } from 'node:net';

/**
 * A loopback TCP port nothing listens on right now: the OS picks it and it is free again once
 * this resolves. For tests and tools that start servers of their own (another process may take it
 * in between, so use it at once).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
