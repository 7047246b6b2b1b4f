import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { jsonAt, objectAt, textAt, type JsonObject } from '../helpers/json';

/**
 * Checks real answers against the OpenAPI document: the schema of the route's status, with
 * every documented object closed (`additionalProperties: false` where the document leaves it
 * open), so a field a presenter adds without documenting it fails too.
 */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();
  /** `METHOD path status` of every answer checked. */
  readonly seen = new Set<string>();

  constructor(private readonly document: object) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: { schemas: closed(structuredClone(objectAt(document, 'components', 'schemas'))) } });
  }

  /**
   * Throws with ajv's errors when `body` is not what the document says `METHOD path` answers with
   * `status`, or when `headers` carry one of the service's own headers the answer does not list.
   */
  check(method: string, path: string, status: number, body: unknown, headers: Readonly<Record<string, unknown>> = {}): void {
    const operation = jsonAt(this.document, 'paths', path, method.toLowerCase());
    if (!operation) throw new Error(`${method} ${path} is not in the document`);
    const response = jsonAt(operation, 'responses', String(status));
    if (!response) throw new Error(`${method} ${path} answered ${status}, which the document does not list`);
    const csv = jsonAt(response, 'content', 'text/csv');
    if (csv !== undefined) {
      checkCsv(`${method} ${path} ${status}`, textAt(csv, 'example'), body);
    } else {
      const schema = objectAt(response, 'content', 'application/json', 'schema');
      const errors = this.errorsOf(schema, body);
      if (errors !== undefined) throw new Error(`${method} ${path} ${status} does not match ${JSON.stringify(schema)}: ${errors}\n${JSON.stringify(body)}`);
    }
    const documented = new Set(Object.keys(objectAt(response, 'headers')).map((name) => name.toLowerCase()));
    const undocumented = SERVICE_HEADERS.filter((name) => headers[name] !== undefined && !documented.has(name));
    if (undocumented.length > 0) throw new Error(`${method} ${path} ${status} sent ${undocumented.join(', ')}, which the document does not list for it`);
    this.seen.add(`${method.toUpperCase()} ${path} ${status}`);
  }

  /** ajv's errors when `value` does not match `schema` (a schema of the document, or one whose `$ref`s point into it); undefined when it does. */
  errorsOf(schema: JsonObject, value: unknown): string | undefined {
    const validate = this.validator(schema);
    return validate(value) ? undefined : this.ajv.errorsText(validate.errors);
  }

  /** A validator of a schema of the document: a `$ref` into it, or one written in place (its `$ref`s point into the document). */
  private validator(schema: JsonObject): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(objectAt(closed(intoDocument(schema))));
      this.cache.set(key, validate);
    }
    return validate;
  }
}

/**
 * A CSV answer (its text) against the document's example file: the same header row, and a byte
 * order mark exactly when the example has one.
 */
function checkCsv(label: string, example: string, body: unknown): void {
  if (typeof body !== 'string') throw new Error(`${label} is documented as text/csv, but the answer checked is not text`);
  const bom = (text: string) => text.startsWith('\uFEFF');
  if (bom(body) !== bom(example)) throw new Error(`${label}: ${bom(example) ? 'no' : 'a'} byte order mark, unlike the document's example`);
  const header = (text: string) => text.replace(/^\uFEFF/, '').split('\r\n')[0];
  if (header(body) !== header(example)) throw new Error(`${label}: the header row ${header(body)} is not the document's ${header(example)}`);
}

/** The headers the service sets on its answers; each one an answer carries must be documented for it. */
const SERVICE_HEADERS = ['request-id', 'api-version', 'idempotent-replayed', 'retry-after'];

/** A schema whose `$ref`s into the document (`#/components/…`) point at the schema added as `openapi`. */
function intoDocument(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(intoDocument);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `openapi${value}` : intoDocument(value),
    ]),
  );
}

/** Closes every object schema that has `properties` and says nothing about other keys. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(objectAt(value)).map(([k, v]) => [k, closed(v)])) : closed(value);
  if (out.properties && out.additionalProperties === undefined && out.type === 'object') out.additionalProperties = false;
  return out;
}
