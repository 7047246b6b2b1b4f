import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listeningPort } from '@payments/node-runtime';

export interface CallbackReceiver {
  /** Where the simulator sends its callbacks. */
  readonly url: string;
  close(): void;
}

/**
 * An HTTP receiver of the simulator's callbacks on 127.0.0.1: `answer` gets each callback's raw
 * body and headers once it has arrived whole, and says the status and JSON body to answer with.
 */
export async function startCallbackReceiver(
  answer: (body: string, headers: IncomingHttpHeaders) => { status: number; body: string },
): Promise<CallbackReceiver> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const answered = answer(body, req.headers);
      res.writeHead(answered.status, { 'content-type': 'application/json' }).end(answered.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${listeningPort(server)}/cb`, close: () => server.close() };
}
