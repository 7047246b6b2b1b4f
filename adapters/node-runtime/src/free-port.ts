import { createServer, type Server } from 'node:net';

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
      const port = listeningPort(probe);
      probe.close(() => resolve(port));
    });
  });
}

/** The TCP port a listening server (net, http, https or tls) took; its address is a pipe's path or null otherwise. */
export function listeningPort(server: Pick<Server, 'address'>): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The server is not listening on a TCP port.');
  return address.port;
}
