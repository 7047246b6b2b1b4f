import * as http from 'node:http';
import * as https from 'node:https';
import type { Server, Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** TLS only: the SNI name the client sent. */
  readonly servername?: string;
  readonly localAddress?: string;
}

export interface Receiver {
  readonly port: number;
  readonly requests: Received[];
  /** TCP connections accepted (a refused send must open none). */
  connections: number;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const answer200: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
};

function track(server: http.Server, handler: Handler, host: string): Promise<Receiver> {
  const requests: Received[] = [];
  const sockets = new Set<Socket>();
  const receiver: Receiver = {
    port: 0,
    requests,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    receiver.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: TLSSocket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const servername = req.socket instanceof TLSSocket ? req.socket.servername : undefined;
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        ...(typeof servername === 'string' ? { servername } : {}),
        ...(req.socket.localAddress !== undefined ? { localAddress: req.socket.localAddress } : {}),
      });
      handler(req, res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      (receiver as { port: number }).port = portOf(server);
      resolve(receiver);
    });
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The receiver is not listening on a TCP port.');
  return address.port;
}

export function startHttpReceiver(handler: Handler = answer200, host = '127.0.0.1'): Promise<Receiver> {
  return track(http.createServer(), handler, host);
}

export interface Tls {
  readonly key: string;
  readonly cert: string;
}

/** A fresh self-signed certificate (EC P-256) that is its own CA, for a host name or an IP address. */
export async function selfSignedCertificate(host: { readonly name: string } | { readonly ip: string }): Promise<Tls> {
  const commonName = 'name' in host ? host.name : host.ip;
  const altName = 'name' in host ? { type: 2 as const, value: host.name } : { type: 7 as const, ip: host.ip };
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [altName] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export function startHttpsReceiver(tls: Tls, handler: Handler = answer200, host = '127.0.0.1'): Promise<Receiver> {
  return track(https.createServer({ key: tls.key, cert: tls.cert }), handler, host);
}

/** A port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = portOf(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
