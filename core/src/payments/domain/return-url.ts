import { CoreError, publicHttpsUrlProblem } from '../../common';

export const MAX_RETURN_URL_LENGTH = 2048;

/**
 * The page the payer returns to must be a public https page: an absolute https URL on a host
 * name, without user info, never an IP literal or localhost (in test mode too, so an integration
 * that passes in test does not break in live). Returns the URL as given.
 */
export function validateReturnUrl(value: string): string {
  const problem = publicHttpsUrlProblem(value, MAX_RETURN_URL_LENGTH);
  if (problem !== undefined) throw new CoreError('invalid_return_url', 'validation', `return_url ${problem}.`, { param: 'return_url' });
  return value;
}
