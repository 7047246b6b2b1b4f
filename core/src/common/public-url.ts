import ipaddr from 'ipaddr.js';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Why `value` is not an absolute https URL on a public host name, or undefined when it is. One
 * rule for every address the service sends a payer or a request to (return_url, webhook
 * endpoints): https only, no user info, never an IP literal in any form the URL parser accepts
 * (dotted, decimal, hex, short, IPv6) nor localhost, and a host name of at least two labels whose
 * top-level label is not numeric. The reason reads after the field name ("must use https") and
 * never repeats the value.
 */
export function publicHttpsUrlProblem(value: string, maxLength: number): string | undefined {
  if (value.length > maxLength) return `must be at most ${maxLength} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (url.username !== '' || url.password !== '') return 'must not carry user info';
  const host = url.hostname.replace(/\.$/, '');
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(bare) || host.startsWith('[')) return 'must name a host, not an IP address';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at localhost';
  const labels = host.split('.');
  const topLevel = labels[labels.length - 1] ?? '';
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || /^[0-9]+$/.test(topLevel)) {
    return 'must name a public host such as shop.example.com';
  }
  return undefined;
}
