/* The Node build (package.json `exports`, condition `node`): crypto through node:crypto. */
export * from './exports.js';
export { Payments } from './node-client.js';
export { NodeCryptoProvider } from './crypto/node-crypto.js';

import { Payments } from './node-client.js';
export default Payments;
