import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import test from 'ava';
import fc from 'fast-check';
import pino from 'pino';
import type { ServerInjectResponse } from '@hapi/hapi';
import { AppConfig } from '../src/container';
import type { Config } from '../src/config';
import { MAX_BODY_BYTES } from '../src/server';
import { unique, withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';
import { signIn, type SignedInUser } from './helpers/dashboard';
import { checkoutClient } from './helpers/checkout';
import { jsonAt, listAt, objectAt, textAt, type JsonObject } from './helpers/json';

/**
 * Bad input: a property-based fuzzer over every operation of the OpenAPI document the
 * server serves (bodies mutated from the schema, queries, headers, path ids, sizes around 64 KiB,
 * wrong content types, malformed and deep JSON), plus every route of `server.table()` the document
 * leaves out (hosted checkout, dashboard, channel callbacks). Every answer: no 5xx; every error is
 * the envelope with `request_id` = the `Request-Id` header; `invalid_parameter` names a `param`;
 * no secret in any error body or log line.
 *
 * Replay: a failure prints fast-check's seed and path; run again with FUZZ_SEED=<seed> and
 * FUZZ_PATH=<path>. FUZZ_RUNS sets the runs per property (default modest, for CI).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const PATH = process.env.FUZZ_PATH;
const params = (numRuns = RUNS) => ({
  numRuns,
  ...(SEED === undefined ? {} : { seed: SEED }),
  ...(PATH === undefined ? {} : { path: PATH }),
  endOnFailure: true,
  includeErrorInReport: true,
});

const logLines: string[] = [];
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(chunk.toString('utf8'));
    done();
  },
});

let t0: TestApp;
let shop: TestMerchant;
let liveKey: string;
let owner: SignedInUser;
let checkoutToken: string;
/** A session the fuzzer never touches, so its per-token rate limit is whole for the size and depth tests. */
let quietToken: string;
let webhookSecret: string;
let intentIds: string[] = [];
let operations: Operation[] = [];
/** Every credential and secret the app holds for this test: none may leave in an error or a log line. */
let secrets: string[] = [];

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly query: Array<{ name: string; schema: JsonObject }>;
  readonly body?: JsonObject;
}

withAppAndMerchant({ logger: pino({ level: 'trace', base: undefined }, logSink) }, async (started) => {
  ({ t0, shop } = started);
  liveKey = await shop.liveKey();
  owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const checkout = checkoutClient(t0);
  const sessions = await Promise.all([1, 2, 3].map(() => checkout.createIntent(shop.testKey)));
  checkoutToken = sessions[0].token;
  quietToken = sessions[2].token;
  intentIds = sessions.map((session) => session.intent.id);
  const endpoint = await t0.request({
    method: 'POST',
    url: '/dashboard/v1/webhook_endpoints?mode=test',
    headers: { cookie: owner.cookie },
    payload: { url: 'https://hooks.example.com/fuzz' },
  });
  const secret = jsonAt(endpoint.result, 'secret');
  if (typeof secret !== 'string') throw new Error(`setup: no webhook secret in ${endpoint.payload}`);
  webhookSecret = secret;
  const config = t0.app.get<Config>(AppConfig);
  secrets = [
    shop.testKey,
    liveKey,
    owner.cookie.split('=')[1],
    owner.password,
    owner.totpSecret,
    ...sessions.map((session) => session.token),
    webhookSecret,
    config.masterKey.toString('hex'),
    config.masterKey.toString('base64'),
  ];

  const doc = objectAt((await t0.request({ method: 'GET', url: '/v1/openapi.json' })).result);
  const resolve = (schema: JsonObject | undefined): JsonObject | undefined => {
    if (!schema?.$ref) return schema;
    return textAt(schema, '$ref')
      .split('/')
      .slice(1)
      .reduce<JsonObject>((node, part) => objectAt(node, part), doc);
  };
  operations = Object.entries(objectAt(doc, 'paths')).flatMap(([path, ops]) =>
    Object.entries(objectAt(ops)).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      query: listOr(op, 'parameters')
        .map((p) => objectAt(resolve(objectAt(p))))
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: textAt(p, 'name'), schema: resolve(schemaAt(p, 'schema')) ?? {} })),
      ...(jsonAt(op, 'requestBody') ? { body: resolveDeep(resolve(schemaAt(op, 'requestBody', 'content', 'application/json', 'schema')) ?? {}, resolve) } : {}),
    })),
  );
  if (operations.length < 15) throw new Error(`the OpenAPI document lists only ${operations.length} operations`);
});
test.after('summary', (t) => {
  if (process.env.FUZZ_DEBUG)
    for (const [detail, count] of [...seen.details].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.FUZZ_DEBUG))) t.log(count, detail);
  t.log(`answers by status: ${JSON.stringify(Object.fromEntries([...seen.statuses].sort()))}; log lines checked: ${seen.logLines}`);
});

/** The schema object at `path`, or undefined where there is none. */
function schemaAt(value: unknown, ...path: string[]): JsonObject | undefined {
  return jsonAt(value, ...path) === undefined ? undefined : objectAt(value, ...path);
}

/** The list at `path`, or an empty one where there is none. */
function listOr(value: unknown, ...path: string[]): unknown[] {
  return jsonAt(value, ...path) === undefined ? [] : listAt(value, ...path);
}

/** The number at `path`, or `otherwise` where there is none. */
function numberOr(value: unknown, name: string, otherwise: number): number {
  const found = jsonAt(value, name);
  return typeof found === 'number' ? found : otherwise;
}

/** A schema's properties by name (none when it has none). */
function propertiesOf(schema: JsonObject): Array<[string, JsonObject]> {
  return Object.entries(schema.properties ? objectAt(schema, 'properties') : {}).map(([name, sub]): [string, JsonObject] => [name, objectAt(sub)]);
}

function resolveDeep(schema: JsonObject, resolve: (s: JsonObject | undefined) => JsonObject | undefined, depth = 0): JsonObject {
  const node = resolve(schema) ?? {};
  if (depth > 6) return node;
  const out: JsonObject = { ...node };
  if (node.properties) out.properties = Object.fromEntries(propertiesOf(node).map(([k, v]) => [k, resolveDeep(v, resolve, depth + 1)]));
  if (node.items) out.items = resolveDeep(objectAt(node, 'items'), resolve, depth + 1);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const edgeNumbers = fc.constantFrom(
  0,
  -1,
  1,
  2 ** 31,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  // int64's maximum as a client writes it; as a double it is 2^63.
  Number('9223372036854775807'),
  1e308,
  -1e308,
  0.5,
  1.0000001,
  Number.MIN_VALUE,
);
const oddStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\u202e',
  '😀'.repeat(50),
  'x'.repeat(70_000),
  'Ā'.repeat(300),
  '../../etc/passwd',
  '%00',
  '<script>',
  '{"a":',
  'null',
  'NaN',
  '1e400',
  'pi_',
  'sk_test_',
  'ℌ𝔢𝔩𝔩𝔬',
  '\ud800',
);
/** Any JSON value, weighted to the shapes that break things. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  edgeNumbers,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  oddStrings,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null)), { maxKeys: 4 }),
);

/** A value that fits `schema` as far as cheaply possible (enums, patterns aside), to get past the first check. */
function fitting(schema: JsonObject, depth = 0): fc.Arbitrary<unknown> {
  const choices = listOr(schema, 'enum');
  if (choices.length > 0) return fc.constantFrom(...choices);
  const type = Array.isArray(schema.type) ? jsonAt(schema, 'type', 0) : schema.type;
  if (type === 'integer')
    return fc.oneof(fc.integer({ min: numberOr(schema, 'minimum', 0), max: Math.min(numberOr(schema, 'maximum', 1e9), 1e9) }), edgeNumbers);
  if (type === 'number') return fc.double({ noNaN: true });
  if (type === 'boolean') return fc.boolean();
  if (type === 'array') return fc.array(schema.items && depth < 4 ? fitting(objectAt(schema, 'items'), depth + 1) : anyJson, { maxLength: 3 });
  if (type === 'object' || schema.properties) return mutatedObject(schema, depth + 1);
  if (schema.format === 'uri')
    return fc.constantFrom('https://shop.example.com/return', 'http://127.0.0.1/', 'javascript:alert(1)', 'https://' + 'a'.repeat(3000) + '.com');
  if (schema.pattern === '^[A-Z]{3}$') return fc.constantFrom('THB', 'USD', 'SGD', 'EUR', 'XXX', 'thb');
  return fc.oneof(
    fc.string({ maxLength: numberOr(schema, 'maxLength', 40) }),
    fc.constantFrom('promptpay', 'truemoney', 'paynow', 'simulator', 'succeeded', 'failed', 'expiry', 'release'),
  );
}

/** An object of the schema's fields, each present or not, fitting or any JSON, plus unknown fields now and then. */
function mutatedObject(schema: JsonObject, depth = 0): fc.Arbitrary<JsonObject> {
  const properties = propertiesOf(schema);
  const fields = Object.fromEntries(
    properties.map(([name, sub]) => [name, depth > 4 ? anyJson : fc.oneof({ weight: 3, arbitrary: fitting(sub, depth) }, { weight: 1, arbitrary: anyJson })]),
  );
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 2 }), fc.boolean())
    .map(([known, extra, addExtra]) => (addExtra ? { ...known, ...extra } : known));
}

/**
 * The schema's required fields fitting and its optional ones fitting or absent, then at most one
 * field dropped or replaced by any JSON: bodies that get past the first check and reach the use cases.
 */
function nearlyValid(schema: JsonObject): fc.Arbitrary<JsonObject> {
  const properties = propertiesOf(schema);
  const required = new Set(listOr(schema, 'required'));
  // Required fields always, each optional one about one time in four.
  const base = fc.tuple(...properties.map(([name, sub]) => fc.tuple(fc.constant(name), clean(name, sub), fc.integer({ min: 0, max: 3 }))));
  const names = properties.map(([name]) => name);
  return fc
    .tuple(base, fc.constantFrom('keep', 'keep', 'keep', 'drop', 'replace'), names.length ? fc.constantFrom(...names) : fc.constant('x'), anyJson)
    .map(([fields, how, name, value]) => {
      const out: JsonObject = {};
      for (const [field, fieldValue, dice] of fields)
        if (required.has(field) || dice === 0) out[field] = field === 'merchant_order_id' ? unique('order') : fieldValue;
      if (how === 'drop') delete out[name];
      if (how === 'replace') out[name] = value;
      return out;
    });
}

/** A value the API should take for a field of this name and schema. */
function clean(name: string, schema: JsonObject): fc.Arbitrary<unknown> {
  const choices = listOr(schema, 'enum');
  if (choices.length > 0) return fc.constantFrom(...choices);
  if (schema.type === 'integer') return fc.integer({ min: numberOr(schema, 'minimum', 0), max: Math.min(numberOr(schema, 'maximum', 1e6), 1e6) });
  if (schema.type === 'object') return fc.dictionary(text(1, 10), text(0, 20), { maxKeys: 3 });
  if (name === 'currency' || schema.pattern === '^[A-Z]{3}$') return fc.constantFrom('THB', 'USD', 'SGD');
  if (name === 'payment_method' || name === 'channel_preference') return fc.constantFrom('promptpay', 'truemoney', 'paynow');
  if (name === 'channel') return fc.constantFrom('simulator', 'rest');
  if (name.endsWith('_url')) return fc.constant('https://shop.example.com/return');
  if (name === 'outcome') return fc.constantFrom('succeeded', 'failed', 'pending', 'dispute_opened', 'dispute_won', 'dispute_lost');
  if (name === 'failure_code') return fc.constantFrom('insufficient_funds', 'payer_cancelled', 'risk_blocked');
  if (name === 'clock') return fc.constantFrom('expiry', 'release');
  return text(Math.max(1, numberOr(schema, 'minLength', 1)), Math.min(numberOr(schema, 'maxLength', 40), 40));
}

/** ASCII, or any Unicode (emoji, 4-byte characters, combining marks, lone surrogates): a column must take what the schema allows. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    fc.string({ unit: 'binary', minLength, maxLength }),
  );
}

/** A JSON text just under or just over the 64 KiB limit. */
const sizedBody = fc.integer({ min: -64, max: 64 }).map((delta) => {
  const target = MAX_BODY_BYTES + delta;
  const frame = JSON.stringify({ amount: 100, currency: 'THB', merchant_order_id: 'big', metadata: { k: '' } });
  return '{"amount":100,"currency":"THB","merchant_order_id":"big","metadata":{"k":"' + 'a'.repeat(Math.max(0, target - frame.length)) + '"}}';
});
const deepBody = fc
  .integer({ min: 100, max: 10_000 })
  .chain((levels) =>
    fc.constantFrom('[', '{"a":').map((open) => (open === '[' ? '['.repeat(levels) + ']'.repeat(levels) : '{"a":'.repeat(levels) + '1' + '}'.repeat(levels))),
  );
const malformedJson = fc.oneof(
  fc.constantFrom(
    '{',
    '{"amount":',
    '[1,2',
    '{"a":1}{"b":2}',
    'nul',
    '\u0000',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '{"amount":1e999999}',
    '"just a string"',
    '123',
    'true',
    '[]',
    '{"a":"\\ud800"}',
  ),
  fc.string({ maxLength: 60 }),
);
type RawBody = { text: string; contentType?: string };
const contentTypes = fc.constantFrom<string | undefined>(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/xml',
  'application/octet-stream',
  'application/json; boundary=;;;',
  '*/*',
  '',
  undefined,
);

/** What goes in the body: a mutated object as JSON, or raw text with any content type. */
function bodyArb(schema: JsonObject | undefined): fc.Arbitrary<RawBody | undefined> {
  const json = (schema ? mutatedObject(schema) : fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 })).map((value) => ({
    text: JSON.stringify(value),
    contentType: 'application/json',
  }));
  return fc.oneof(
    { weight: 4, arbitrary: json },
    ...(schema ? [{ weight: 4, arbitrary: nearlyValid(schema).map((value) => ({ text: JSON.stringify(value), contentType: 'application/json' })) }] : []),
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: anyJson.map((value) => ({ text: JSON.stringify(value) ?? 'null', contentType: 'application/json' })) },
    { weight: 1, arbitrary: fc.record({ text: malformedJson, contentType: contentTypes }) },
    { weight: 1, arbitrary: fc.record({ text: json.map((b) => b.text), contentType: contentTypes }) },
    { weight: 1, arbitrary: sizedBody.map((text) => ({ text, contentType: 'application/json' })) },
    { weight: 1, arbitrary: deepBody.map((text) => ({ text, contentType: 'application/json' })) },
  );
}

const pathId = (real: () => fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 3, arbitrary: real() },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'pi_0000000000000000000000',
        'dp_AAAA',
        'st_AAAAAAAAAAAAAAAAAAAAAA',
        'ch_abc',
        'PI_abc',
        'pi_',
        '..',
        '..%2F..%2Fetc%2Fpasswd',
        '%2e%2e',
        '%00',
        '%ZZ',
        'pi_%F0%9F%98%80',
        `pi_${'a'.repeat(5000)}`,
        'pi_abc%20def',
        'pi_abc;drop',
        '%E2%80%AE',
        'null',
        'undefined',
        '1',
        '-1',
      ),
    },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
  );

const queryValue = fc.oneof(
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
  fc.integer().map(String),
  fc.constantFrom(
    '0',
    '1',
    '100',
    '101',
    '-1',
    '1.5',
    '1e3',
    '9007199254740993',
    '99999999999999999999',
    '',
    'evt_AAAA',
    'evt_',
    'pi_x',
    '%ZZ',
    '%00',
    'true',
    '2026-01-01T00:00:00Z',
    'not-a-date',
    'THB',
    'USD',
    'promptpay',
    'succeeded',
    'opened',
    'a'.repeat(3000),
  ),
);
/** A query of the operation's names and a few others, some repeated (`limit=1&limit=2` is an array to Hapi). */
function queryArb(names: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 4, arbitrary: names.length ? fc.constantFrom(...names) : fc.constant('x') },
    { weight: 1, arbitrary: fc.constantFrom('x', 'limit[]', 'a[b]', '__proto__', 'constructor', 'mode', '') },
  );
  return fc.array(fc.tuple(name, queryValue), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&'));
}

/** Header values inject can carry (latin1); junk Api-Version and over-long Idempotency-Keys. */
const latin1 = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
const anyHeadersArb = fc.record(
  {
    'api-version': fc.oneof(
      { weight: 3, arbitrary: fc.constant('2026-09-01') },
      fc.constantFrom('2020-01-01', '9999-99-99', '', 'latest', '2026-9-1', '../'),
      latin1,
    ),
    'idempotency-key': fc.oneof(
      fc.constant('fixed-key-1'),
      fc.integer({ min: 1, max: 300 }).map((n) => 'k'.repeat(n)),
      latin1,
      fc.constantFrom('', ' ', 'ÿÿÿ'),
    ),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', ''),
    'accept-language': fc.constantFrom('th', 'en', 'xx', '*', ';;;', 'ÿ'),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'junk', '::1, 10.0.0.1'),
  },
  { requiredKeys: [] },
);
const headersArb = fc.oneof({ weight: 1, arbitrary: fc.constant({}) }, { weight: 2, arbitrary: anyHeadersArb });

type Credential = 'test' | 'live' | 'none' | 'junk' | 'cookie';
const credentialArb = fc.constantFrom<Credential>('test', 'test', 'test', 'test', 'test', 'live', 'none', 'junk', 'cookie');
function credentialHeaders(credential: Credential): Record<string, string> {
  switch (credential) {
    case 'test':
      return { authorization: `Bearer ${shop.testKey}` };
    case 'live':
      return { authorization: `Bearer ${liveKey}` };
    case 'junk':
      return { authorization: `Bearer ${shop.testKey}x` };
    case 'cookie':
      return { cookie: owner.cookie };
    case 'none':
      return {};
  }
}

// ---------------------------------------------------------------------------------------------
// What every answer must be

interface Sent {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: RawBody;
}

async function send(req: Sent): Promise<ServerInjectResponse> {
  const headers = { ...req.headers, ...(req.body?.contentType === undefined ? {} : { 'content-type': req.body.contentType }) };
  return t0.server.inject({ method: req.method, url: req.url, headers, ...(req.body === undefined ? {} : { payload: req.body.text }) });
}

function describe(req: Sent, res: ServerInjectResponse): string {
  const body = req.body ? `${req.body.contentType ?? '(no content type)'} ${req.body.text.length} chars: ${req.body.text.slice(0, 200)}` : '(no body)';
  return `${req.method} ${req.url.slice(0, 300)} headers=${JSON.stringify(req.headers).slice(0, 300)} body=${body}\n→ ${res.statusCode} ${res.payload.slice(0, 400)}`;
}

function assertAnswer(req: Sent, res: ServerInjectResponse): void {
  const fail = (why: string) => {
    throw new Error(`${why}\n${describe(req, res)}`);
  };
  requestIdsSeen.add(String(res.headers['request-id']));
  const key = `${res.statusCode}`;
  seen.statuses.set(key, (seen.statuses.get(key) ?? 0) + 1);
  if (process.env.FUZZ_DEBUG) {
    const detail = `${req.method} ${req.url.split('?')[0].slice(0, 40)} ${res.statusCode} ${res.payload.slice(0, 120)}`.replace(/req_\w+/, '');
    seen.details.set(detail, (seen.details.get(detail) ?? 0) + 1);
  }
  if (res.statusCode >= 500) fail('a 5xx answer');
  if (res.statusCode >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(res.payload);
    } catch {
      // The hosted checkout page and the console answer a person with HTML; their errors (a gone
      // checkout, a console path that names no page) are pages, not JSON.
      const page = req.url.startsWith('/c/') || (req.url.startsWith('/dashboard/') && !req.url.startsWith('/dashboard/v1/'));
      if (page && String(res.headers['content-type']).startsWith('text/html')) return assertNoSecret(req, res, res.payload);
      return fail('an error that is not JSON');
    }
    const error = jsonAt(body, 'error');
    const [code, requestId, param] = [jsonAt(error, 'code'), jsonAt(error, 'request_id'), jsonAt(error, 'param')];
    if (typeof code !== 'string' || typeof jsonAt(error, 'message') !== 'string') fail('not the error envelope');
    // An idempotent replay answers the stored first answer (docs/architecture.md): its request_id
    // is the first request's, which this run saw as a Request-Id header; any other answer's is its own.
    const replayed = res.headers['idempotent-replayed'] === 'true';
    if (typeof requestId !== 'string') fail('no request_id');
    else if (replayed ? !requestIdsSeen.has(requestId) : requestId !== res.headers['request-id'])
      fail(`request_id ${requestId} is not the Request-Id header ${String(res.headers['request-id'])}${replayed ? ' of the first answer' : ''}`);
    // A field literally named "" (`?=1`, `{"":1}`) is named by param "".
    const emptyName = /[?&]=|[?&]$|"":/.test(req.url + (req.body?.text ?? ''));
    if (code === 'invalid_parameter' && (typeof param !== 'string' || (param === '' && !emptyName))) fail('invalid_parameter names no param');
    if (res.statusCode === 413 && code !== 'request_too_large') fail('a 413 that is not request_too_large');
    assertNoSecret(req, res, res.payload);
  }
  // A JSON body over the limit on a route that reads one is 413, whatever else is wrong with it.
  const reads = req.method !== 'GET' && req.method !== 'DELETE' && !req.url.startsWith('/channels/');
  if (
    reads &&
    req.body &&
    Buffer.byteLength(req.body.text) > MAX_BODY_BYTES &&
    res.statusCode !== 413 &&
    ![401, 403, 404, 405, 415].includes(res.statusCode) &&
    res.statusCode < 400
  ) {
    fail('a body over 64 KiB was accepted');
  }
}

function assertNoSecret(req: Sent, res: ServerInjectResponse, text: string): void {
  for (const secret of secrets)
    if (secret && text.includes(secret)) throw new Error(`a secret (${secret.slice(0, 8)}…) in an error answer\n${describe(req, res)}`);
}

/** Every Request-Id header answered so far. */
const requestIdsSeen = new Set<string>();

/** Answers by status, and log lines read, for the test's summary. */
const seen = { statuses: new Map<string, number>(), details: new Map<string, number>(), logLines: 0 };

function assertNoSecretInLogs(): void {
  const lines = logLines.splice(0);
  seen.logLines += lines.length;
  for (const line of lines) {
    for (const secret of secrets)
      if (secret && line.includes(secret)) throw new Error(`a secret (${secret.slice(0, 8)}…) in a log line: ${line.slice(0, 500)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The properties

function urlFor(path: string, id: string, query: string): string {
  return path.replace('{id}', id) + (query ? `?${query}` : '');
}

test.serial('every operation of the OpenAPI document: no 5xx, every error the envelope, no secret in an answer or a log line', async (t) => {
  const operationArb = fc.constantFrom(...operations).chain((op) =>
    fc.record({
      op: fc.constant(op),
      id: pathId(() => fc.constantFrom(...intentIds.slice(0, 2))),
      query: queryArb(op.query.map((q) => q.name)),
      headers: headersArb,
      credential: credentialArb,
      body: op.method === 'GET' ? fc.option(bodyArb(undefined), { freq: 5 }).map((b) => b ?? undefined) : bodyArb(op.body),
      freshKey: fc.constantFrom(true, true, true, false),
    }),
  );
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(operationArb, async ({ op, id, query, headers, credential, body, freshKey }) => {
      runs += 1;
      const req: Sent = {
        method: op.method,
        url: urlFor(op.path, id, query),
        headers: { ...headers, ...(freshKey && op.method === 'POST' ? { 'idempotency-key': unique('fz') } : {}), ...credentialHeaders(credential) },
        ...(body === undefined ? {} : { body }),
      };
      assertAnswer(req, await send(req));
      assertNoSecretInLogs();
    }),
    params(RUNS * operations.length > 0 ? Math.max(RUNS * 3, operations.length * 4) : RUNS),
  );
  t.true(runs > 0);
});

test.serial('every route the document leaves out (hosted checkout, dashboard, channel callbacks): no 5xx, every error the envelope, no secret', async (t) => {
  const documented = new Set(operations.map((op) => `${op.method} ${op.path}`));
  const routes = t0.server
    .table()
    .map((route) => ({ method: route.method.toUpperCase(), path: route.path }))
    // Signing out would end the session the rest of the run signs in with.
    .filter((route) => !documented.has(`${route.method} ${route.path}`) && !(route.method === 'DELETE' && route.path === '/dashboard/v1/session'));
  t.true(
    routes.some((route) => route.path.startsWith('/checkout/')) &&
      routes.some((route) => route.path.startsWith('/dashboard/')) &&
      routes.some((route) => route.path.startsWith('/channels/')),
  );
  const segment = fc.oneof(
    { weight: 2, arbitrary: fc.constant('REAL') },
    { weight: 3, arbitrary: pathId(() => fc.constant('x')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'simulator',
        'rest',
        'test',
        'live',
        'checkout.css',
        'checkout.js',
        'usr_0000',
        'ak_0000',
        'we_0000',
        'pd_0000',
        'whd_AAAA',
        randomBytes(32).toString('base64url'),
      ),
    },
  );
  const routeArb = fc.constantFrom(...routes).chain((route) =>
    fc.record({
      route: fc.constant(route),
      segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
      query: queryArb(['mode', 'limit', 'starting_after', 'endpoint', 'lang']),
      headers: headersArb,
      credential: fc.constantFrom<Credential>('cookie', 'cookie', 'none', 'test'),
      body:
        route.method === 'GET'
          ? fc.constant(undefined)
          : fc.oneof(
              { weight: 4, arbitrary: bodyArb(undefined) },
              // The real email and password with a wrong or junk code: a refused sign-in must not log the password.
              {
                weight: 1,
                arbitrary: fc
                  .record({ code: fc.oneof(fc.constantFrom('000000', '', owner.totpSecret), anyJson) })
                  .map(({ code }) => ({ text: JSON.stringify({ email: owner.email, password: owner.password, code }), contentType: 'application/json' })),
              },
            ),
      signature: fc.option(fc.constantFrom('t=1,v1=abc', 'sha256=00', latin1Value()), { nil: undefined }),
    }),
  );
  await fc.assert(
    fc.asyncProperty(routeArb, async ({ route, segments, query, headers, credential, body, signature }) => {
      let i = 0;
      const url = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
        const value = segments[i++ % segments.length];
        if (value !== 'REAL') return value;
        if (name === 'token') return checkoutToken;
        if (name === 'id' && route.path.includes('/users/')) return owner.userId;
        return 'x';
      });
      const req: Sent = {
        method: route.method,
        url: url + (query ? `?${query}` : ''),
        headers: { ...headers, ...credentialHeaders(credential), ...(signature === undefined ? {} : { 'x-signature': signature }) },
        ...(body === undefined ? {} : { body }),
      };
      assertAnswer(req, await send(req));
      assertNoSecretInLogs();
    }),
    params(Math.max(RUNS * 3, routes.length * 4)),
  );
});

function latin1Value(): string {
  return 'ÿ'.repeat(10);
}

test.serial('bodies around 64 KiB: just under is read, just over is 413 request_too_large', async (t) => {
  for (const delta of [-1, 0, 1, 1024]) {
    const size = MAX_BODY_BYTES + delta;
    const frame = '{"amount":100,"currency":"THB","merchant_order_id":"' + unique('big') + '","metadata":{"k":"';
    const text = frame + 'a'.repeat(size - frame.length - 3) + '"}}';
    t.is(Buffer.byteLength(text), size);
    for (const url of ['/v1/payment_intents', `/checkout/sessions/${quietToken}/pay`, '/dashboard/v1/users']) {
      const req: Sent = {
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${shop.testKey}`, cookie: owner.cookie, 'idempotency-key': unique('big') },
        body: { text, contentType: 'application/json' },
      };
      const res = await send(req);
      assertAnswer(req, res);
      if (size > MAX_BODY_BYTES) t.is(res.statusCode, 413, describe(req, res));
      else t.not(res.statusCode, 413, describe(req, res));
    }
  }
  assertNoSecretInLogs();
});

test.serial('JSON 10,000 levels deep is refused as a client error, not a crash', async (t) => {
  for (const text of [
    '['.repeat(10_000) + ']'.repeat(10_000),
    '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
    '{"metadata":' + '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_001),
  ]) {
    for (const url of [
      '/v1/payment_intents',
      `/v1/payment_intents/${intentIds[1]}/attempts`,
      `/checkout/sessions/${quietToken}/pay`,
      '/dashboard/v1/settings',
    ]) {
      const req: Sent = {
        method: url.includes('settings') ? 'PATCH' : 'POST',
        url,
        headers: { authorization: `Bearer ${shop.testKey}`, cookie: owner.cookie, 'idempotency-key': unique('deep') },
        body: { text, contentType: 'application/json' },
      };
      const res = await send(req);
      assertAnswer(req, res);
      t.true(res.statusCode >= 400 && res.statusCode < 500, describe(req, res));
    }
  }
  assertNoSecretInLogs();
});
