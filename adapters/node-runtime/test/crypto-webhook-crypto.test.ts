import { createPublicKey, verify } from 'node:crypto';
import test from 'ava';
import { CryptoWebhookCrypto } from '../src/crypto-webhook-crypto';

/** SPKI DER prefix of an Ed25519 public key; the 32-byte key follows. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function verifies(publicKey: string, message: string, signature: string): boolean {
  const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKey, 'base64')]), format: 'der', type: 'spki' });
  return verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64'));
}

test('each key signs as itself, however many keys take turns (parsed keys are kept)', (t) => {
  const crypto = new CryptoWebhookCrypto();
  const pairs = Array.from({ length: 6 }, () => crypto.generateEd25519());
  for (let round = 0; round < 3; round += 1) {
    for (const [i, pair] of pairs.entries()) {
      const message = `msg ${round} ${i}`;
      const signature = crypto.ed25519Sign(pair.privateKey, message);
      t.true(verifies(pair.publicKey, message, signature));
      const other = pairs[(i + 1) % pairs.length];
      t.false(verifies(other.publicKey, message, signature));
    }
  }
});

test('a private key that is not 32 bytes is refused', (t) => {
  t.throws(() => new CryptoWebhookCrypto().ed25519Sign(Buffer.alloc(31).toString('base64'), 'x'), { message: /32 bytes/ });
});
