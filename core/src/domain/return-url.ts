import ipaddr from 'ipaddr.js';
import { CoreError } from '../errors/core-error';

export const MAX_RETURN_URL_LENGTH = 2048;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function refuse(reason: string): CoreError {
  return new CoreError('invalid_return_url', 'validation', `return_url ${reason}.`, { param: 'return_url' });
}

/**
 * The page the payer returns to must be a public https page: an absolute https URL on a host
 * name, without user info, never an IP literal or localhost (in test mode too, so an integration
 * that passes in test does not break in live). Returns the URL as given.
 */
export function validateReturnUrl(value: string): string {
  if (value.length > MAX_RETURN_URL_LENGTH) throw refuse(`must be at most ${MAX_RETURN_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('must be an absolute URL');
  }
  if (url.protocol !== 'https:') throw refuse('must use https');
  if (url.username !== '' || url.password !== '') throw refuse('must not carry user info');
  const host = url.hostname.replace(/\.$/, '');
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(bare) || host.startsWith('[')) throw refuse('must name a host, not an IP address');
  if (host === 'localhost' || host.endsWith('.localhost')) throw refuse('must not point at localhost');
  const labels = host.split('.');
  const topLevel = labels[labels.length - 1] ?? '';
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || /^[0-9]+$/.test(topLevel)) {
    throw refuse('must name a public host such as shop.example.com');
  }
  return value;
}
