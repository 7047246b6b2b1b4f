import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { HttpClient, HttpRequest, HttpResponse } from '@payments/sdk';

type Json = Record<string, any>;

/**
 * Holds every answer an e2e run got to the OpenAPI document the service serves: each body must
 * match the schema of its route and status, with documented objects closed so an undocumented
 * field fails too. (apps/api/test/openapi has the in-process twin of this check.)
 */
export class OpenApiResponses {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { method: string; template: string; pattern: RegExp }[] = [];
  readonly problems: string[] = [];
  /** `METHOD template status` of every answer checked. */
  readonly covered = new Set<string>();

  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: { schemas: closed(structuredClone(document.components.schemas)) } });
    for (const [template, item] of Object.entries(document.paths as Json)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const method of Object.keys(item as Json)) this.routes.push({ method: method.toUpperCase(), template, pattern });
    }
  }

  /** An HttpClient for the SDK that checks each answer on its way through. */
  httpClient(): HttpClient {
    return {
      request: async (request: HttpRequest): Promise<HttpResponse> => {
        const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal });
        const text = await response.text();
        this.check(request.method, new URL(request.url).pathname, response.status, text);
        return { status: response.status, headers: response.headers, text: async () => text };
      },
    };
  }

  private check(method: string, path: string, status: number, text: string): void {
    const route = this.routes.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (!route) return void this.problems.push(`${method} ${path}: not in the document`);
    const response = this.document.paths[route.template][method.toLowerCase()].responses[String(status)];
    if (!response) return void this.problems.push(`${method} ${route.template}: status ${status} not in the document`);
    const ref: string = response.content['application/json'].schema.$ref;
    let validate = this.validators.get(ref);
    if (!validate) this.validators.set(ref, (validate = this.ajv.compile({ $ref: `openapi${ref}` })));
    if (!validate(JSON.parse(text))) this.problems.push(`${method} ${route.template} ${status}: ${this.ajv.errorsText(validate.errors)} in ${text}`);
    this.covered.add(`${method} ${route.template} ${status}`);
  }
}

/** Closes every object schema that has `properties` and says nothing about other keys. */
function closed(schema: any): any {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, closed(v)])) : closed(value);
  if (out.properties && out.additionalProperties === undefined && out.type === 'object') out.additionalProperties = false;
  return out;
}
