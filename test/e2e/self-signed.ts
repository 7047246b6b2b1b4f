import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '@payments/webhook-http/dist/test/receivers';

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
  const pems = await selfSignedCertificate(host);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pems.cert);
  return { ...pems, dir, caFile };
}
