import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { build } from 'esbuild';
import * as sdk from '@payments/sdk';
import { apiError, fakeApi, KEY } from './helpers/fake-api';

/*
 * The SDK minified as an application bundler ships it (identifiers renamed, class names not kept):
 * its errors still say which class they are, and `instanceof` still tells them apart, also
 * against the classes of the unminified copy loaded next to it.
 */

type Sdk = typeof sdk;
const SDK_DIR = join(__dirname, '..', '..');
let work: string;
let minified: Sdk;

test.before(async () => {
  const result = await build({
    stdin: { contents: "module.exports = require('@payments/sdk');", resolveDir: SDK_DIR, loader: 'js' },
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    minify: true,
    keepNames: false,
    logLevel: 'silent',
  });
  work = mkdtempSync(join(tmpdir(), 'sdk-minified-'));
  const file = join(work, 'sdk.min.js');
  writeFileSync(file, result.outputFiles[0]?.text ?? '');
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the bundle of this very package
  minified = createRequire(__filename)(file) as Sdk;
});
test.after.always(() => rmSync(work, { recursive: true, force: true }));

/** Every error class the package exports: its export name and its static `type`. */
function errorTypes(module: Sdk): [string, unknown][] {
  return Object.entries(module).flatMap(([name, value]: [string, unknown]) => {
    const prototype: unknown = typeof value === 'function' ? Reflect.get(value, 'prototype') : undefined;
    return value === module.PaymentsError || prototype instanceof module.PaymentsError ? [[name, Reflect.get(Object(value), 'type')]] : [];
  });
}

test('the minifier renamed the classes, and each still names its type', (t) => {
  t.not(minified.NotFoundError.name, 'NotFoundError', 'the bundle is really minified');
  const types = errorTypes(minified);
  t.true(types.length >= 13);
  for (const [name, type] of types) t.is(type, name);
  t.deepEqual(errorTypes(sdk), types);
});

test('an error of the minified SDK says its class and is an instance of it, and of the same class of the unminified copy', async (t) => {
  const api = await fakeApi(() => ({ status: 404, body: apiError('resource_not_found', 'No such payment intent.') }));
  try {
    const payments = new minified.Payments(KEY, { baseUrl: api.baseUrl });
    const error = await t.throwsAsync(payments.paymentIntents.retrieve('pi_missing'));
    t.is(error?.name, 'NotFoundError');
    t.like(error, { type: 'NotFoundError', code: 'resource_not_found', statusCode: 404 });
    t.true(error instanceof minified.NotFoundError && error instanceof minified.PaymentsError);
    t.false(error instanceof minified.ConflictError || error instanceof minified.SignatureVerificationError);
    t.true(error instanceof sdk.NotFoundError && error instanceof sdk.PaymentsError, 'the other copy recognises it');
    t.false(error instanceof sdk.ConflictError);
    t.false(new Error('plain') instanceof sdk.PaymentsError);

    const refused = t.throws(() => {
      payments.webhooks.constructEvent('{}', 't=1,v1=00', { secret: 'a'.repeat(64) });
    });
    t.like(refused, { name: 'SignatureVerificationError', type: 'SignatureVerificationError', reason: 'wrong_secret' });
    t.true(refused instanceof sdk.SignatureVerificationError && refused instanceof minified.SignatureVerificationError);
  } finally {
    await api.close();
  }
});

test("a subclass of the caller's own is not taken for an SDK class of another copy", (t) => {
  class MyNotFound extends sdk.NotFoundError {}
  const theirs = new minified.NotFoundError({ message: 'x' });
  t.false(theirs instanceof MyNotFound);
  t.true(new MyNotFound({ message: 'y' }) instanceof minified.NotFoundError);
  t.is(new MyNotFound({ message: 'y' }).type, 'NotFoundError');
});
