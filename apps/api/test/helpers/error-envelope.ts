import { jsonAt } from './json';

/**
 * Throws unless an answer is one a client can rely on: never a 5xx, and every refusal the error
 * envelope (a text code, message and request_id, and a param with invalid_parameter). `where`, when
 * given, starts the message.
 */
export function assertProperAnswer(status: number, body: unknown, payload: string, where?: string): void {
  const at = where === undefined ? '' : `${where}: `;
  if (status >= 500) throw new Error(`${at}5xx answer: ${status} ${payload}`);
  if (status < 400) return;
  const error = jsonAt(body, 'error');
  if (typeof jsonAt(error, 'code') !== 'string' || typeof jsonAt(error, 'message') !== 'string' || typeof jsonAt(error, 'request_id') !== 'string') {
    throw new Error(`${at}not the error envelope: ${status} ${payload}`);
  }
  if (jsonAt(error, 'code') === 'invalid_parameter' && typeof jsonAt(error, 'param') !== 'string')
    throw new Error(`${at}invalid_parameter without param: ${payload}`);
}
