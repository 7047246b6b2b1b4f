import { ResponseValidator } from '@payments/api/dist/test/openapi/response-validator';
import type { HttpClient, HttpRequest, HttpResponse } from '@payments/sdk';
import { keysAt } from '../fixtures';

/**
 * Holds every answer an e2e run got to the OpenAPI document the service serves: each body must
 * match the schema of its route and status, with documented objects closed so an undocumented
 * field fails too. The schema check is apps/api's in-process `ResponseValidator`; this adds the
 * matching of real paths to the document's templates and collects problems instead of throwing.
 */
export class OpenApiResponses {
  private readonly validator: ResponseValidator;
  private readonly routes: { method: string; template: string; pattern: RegExp }[] = [];
  readonly problems: string[] = [];
  /** `METHOD template status` of every answer checked. */
  get covered(): ReadonlySet<string> {
    return this.validator.seen;
  }

  constructor(document: unknown) {
    if (typeof document !== 'object' || document === null) throw new TypeError('The OpenAPI document is not a JSON object.');
    this.validator = new ResponseValidator(document);
    for (const template of keysAt(document, 'paths')) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const method of keysAt(document, 'paths', template)) this.routes.push({ method: method.toUpperCase(), template, pattern });
    }
  }

  /** An HttpClient for the SDK that checks each answer on its way through. */
  httpClient(): HttpClient {
    return {
      request: async (request: HttpRequest): Promise<HttpResponse> => {
        const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal });
        const text = await response.text();
        this.check(request.method, new URL(request.url).pathname, response.status, text, Object.fromEntries(response.headers));
        return { status: response.status, headers: response.headers, text: async () => text };
      },
    };
  }

  private check(method: string, path: string, status: number, text: string, headers: Record<string, string>): void {
    const route = this.routes.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (!route) return void this.problems.push(`${method} ${path}: not in the document`);
    try {
      // A CSV export is checked as the text it is (its header row against the document's).
      const csv = (headers['content-type'] ?? '').startsWith('text/csv');
      this.validator.check(method, route.template, status, csv ? text : JSON.parse(text), headers);
    } catch (error) {
      this.problems.push(error instanceof Error ? error.message : String(error));
    }
  }
}
