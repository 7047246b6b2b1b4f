import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { jsonAt, objectAt, textAt } from '../helpers/json';

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

  /** Throws with ajv's errors when `body` is not what the document says `METHOD path` answers with `status`. */
  check(method: string, path: string, status: number, body: unknown): void {
    const operation = jsonAt(this.document, 'paths', path, method.toLowerCase());
    if (!operation) throw new Error(`${method} ${path} is not in the document`);
    const response = jsonAt(operation, 'responses', String(status));
    if (!response) throw new Error(`${method} ${path} answered ${status}, which the document does not list`);
    const ref = textAt(response, 'content', 'application/json', 'schema', '$ref');
    const validate = this.validator(ref);
    if (!validate(body)) throw new Error(`${method} ${path} ${status} does not match ${ref}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
    this.seen.add(`${method.toUpperCase()} ${path} ${status}`);
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.cache.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${ref}` });
      this.cache.set(ref, validate);
    }
    return validate;
  }
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
