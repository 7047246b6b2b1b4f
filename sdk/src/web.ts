/*
 * The build for browsers, workers and edge runtimes, Deno, and any runtime package.json's
 * `exports` does not name: WebCrypto and fetch only, no `node:` module anywhere in its graph.
 */
export * from './exports.js';
export { Payments } from './client.js';

import { Payments } from './client.js';
export default Payments;
