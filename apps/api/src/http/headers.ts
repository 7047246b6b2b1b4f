import type { Request } from '@hapi/hapi';

/** A request header as a string, or undefined when absent (Node joins repeated headers). */
export function header(request: Pick<Request, 'headers'>, name: string): string | undefined {
  const value: unknown = request.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}
