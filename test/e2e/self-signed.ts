import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface SelfSigned {
  readonly key: string;
  readonly cert: string;
  /** A temporary directory holding `ca.pem` (the certificate), for NODE_EXTRA_CA_CERTS; the caller removes it. */
  readonly dir: string;
  readonly caFile: string;
}

/**
 * A fresh P-256 certificate that is its own CA, for a host name or an IP address, written to a
 * temporary `ca.pem` so a process can be told to trust it.
 */
export async function selfSigned(host: { readonly name: string } | { readonly ip: string }, prefix: string): Promise<SelfSigned> {
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
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pems.cert);
  return { key: pems.private, cert: pems.cert, dir, caFile };
}
