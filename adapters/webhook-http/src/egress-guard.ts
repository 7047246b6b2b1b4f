import ipaddr from 'ipaddr.js';

/**
 * Decides which addresses a webhook may be sent to. Only globally routable unicast addresses pass
 * (ipaddr.js `range() === 'unicast'`), after IPv4-mapped and IPv4-compatible IPv6 forms are turned
 * into the IPv4 address they carry. Everything else is refused: loopback, private, unique local,
 * link-local, multicast, unspecified, broadcast, carrier-grade NAT, documentation and other
 * reserved blocks, NAT64 / 6to4 / Teredo prefixes (they embed an IPv4 address that could be
 * internal). The allow-list (`PAYMENTS_EGRESS_ALLOW`, local tests only) lets named addresses through.
 */
export class EgressGuard {
  private readonly allowed: ReadonlySet<string>;

  constructor(allow: readonly string[] = []) {
    this.allowed = new Set(
      allow.map((entry) => {
        const normalized = normalizeAddress(entry);
        if (normalized === undefined) throw new Error(`Not an IP address in the egress allow-list: ${entry}`);
        return normalized;
      }),
    );
  }

  /** True when the address is in the allow-list (exact address, any notation). */
  isAllowListed(address: string): boolean {
    const normalized = normalizeAddress(address);
    return normalized !== undefined && this.allowed.has(normalized);
  }

  /** Why the address is refused, or undefined when it may be connected to. */
  refusal(address: string): string | undefined {
    const normalized = normalizeAddress(address);
    if (normalized === undefined) return 'not an IP address';
    if (this.allowed.has(normalized)) return undefined;
    const range = rangeOf(normalized);
    return range === 'unicast' ? undefined : range;
  }
}

/** The canonical text of an address (IPv4-mapped / -compatible IPv6 as IPv4), or undefined. */
export function normalizeAddress(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return undefined;
  // Zone ids (fe80::1%eth0) parse; the zone does not change the range.
  const parsed = ipaddr.process(bare.replace(/%.*$/, ''));
  if (parsed instanceof ipaddr.IPv6) {
    const parts = parsed.parts;
    // IPv4-compatible (deprecated ::a.b.c.d, RFC 4291 2.5.5.1): judge the IPv4 address it carries.
    if (parts.slice(0, 6).every((part) => part === 0) && !(parts[6] === 0 && (parts[7] ?? 0) <= 1)) {
      const high = parts[6] ?? 0;
      const low = parts[7] ?? 0;
      return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]).toString();
    }
    return parsed.toNormalizedString();
  }
  return parsed.toString();
}

function rangeOf(normalized: string): string {
  return ipaddr.parse(normalized).range();
}
