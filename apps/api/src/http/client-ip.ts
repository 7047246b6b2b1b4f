import { BlockList, isIP } from 'node:net';
import type { Request } from '@hapi/hapi';
import { header } from './headers';

/**
 * The address of the client behind any trusted proxies: `X-Forwarded-For` is read right to left
 * and only across hops that are trusted proxies, so a client cannot pick its own address (and
 * escape the per-IP sign-in throttle) by sending the header itself. Without trusted proxies the
 * socket's address is the client's.
 */
export class ClientIp {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  /** `proxies`: IP addresses and CIDR ranges (`10.0.0.0/8`, `::1`). */
  constructor(proxies: readonly string[]) {
    for (const entry of proxies) {
      const [address = '', bits] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.trusted.addAddress(address, family);
      else this.trusted.addSubnet(address, Number(bits), family);
    }
    this.any = proxies.length > 0;
  }

  of(request: Pick<Request, 'info' | 'headers'>): string {
    let address = unmapped(request.info.remoteAddress);
    if (!this.any) return address;
    const forwarded = (header(request, 'x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop.length > 0);
    for (let hop = forwarded.pop(); hop !== undefined && this.isTrusted(address); hop = forwarded.pop()) {
      const next = unmapped(hop);
      if (isIP(next) === 0) break;
      address = next;
    }
    return address;
  }

  private isTrusted(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/** `::ffff:10.0.0.1` is 10.0.0.1: one client, one throttle key, whichever socket family it came in on. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1] ?? address;
}

/** Validates one entry of PAYMENTS_TRUSTED_PROXIES: an IP address or a CIDR range. */
export function isProxyEntry(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 6 ? 128 : 32);
}
