import type { Server } from '@hapi/hapi';
import { isBoom } from '@hapi/boom';
import { buildOpenApi } from '../../src/openapi/build-openapi';
import { jsonAt, listAt } from '../helpers/json';

/** An error a `/v1` route answered: its route template, status and `error.code`. */
export interface ErrorAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly code: unknown;
}

/**
 * The `error.code` values the document lists for one status of one operation (the enum its error
 * schema narrows `code` to), or undefined when the operation does not list that status.
 */
export function documentedCodes(document: unknown, method: string, path: string, status: number): string[] | undefined {
  const response = jsonAt(document, 'paths', path, method.toLowerCase(), 'responses', String(status));
  if (response === undefined) return undefined;
  const branches = listAt(response, 'content', 'application/json', 'schema', 'allOf');
  return branches.flatMap((branch) => {
    const codes = jsonAt(branch, 'properties', 'error', 'properties', 'code', 'enum');
    return Array.isArray(codes) ? codes.filter((code): code is string => typeof code === 'string') : [];
  });
}

/** The answers whose status or code the document does not list for their operation, one line each. */
export function undocumentedErrors(document: unknown, answers: readonly ErrorAnswer[]): string[] {
  const problems = new Set<string>();
  for (const { method, path, status, code } of answers) {
    const codes = documentedCodes(document, method, path, status);
    const label = `${method.toUpperCase()} ${path} ${status} ${typeof code === 'string' ? code : JSON.stringify(code)}`;
    if (codes === undefined) problems.add(`${label}: the operation does not list ${status}`);
    else if (typeof code !== 'string' || !codes.includes(code)) problems.add(`${label}: not among ${codes.join(', ')}`);
  }
  return [...problems];
}

/**
 * Records every error a `/v1` route of `server` answers, for `check` to hold them against the
 * document built from the same route table: so each test suite that starts the app also checks
 * that the codes it meets are the ones each operation lists.
 */
export function recordErrorAnswers(server: Server): { check(): void } {
  const answers: ErrorAnswer[] = [];
  server.events.on('response', (request) => {
    const response = request.response;
    if (!request.route.path.startsWith('/v1/') || isBoom(response) || response.statusCode < 400) return;
    answers.push({ method: request.method, path: request.route.path, status: response.statusCode, code: codeOf(response.source) });
  });
  return {
    check: () => {
      if (answers.length === 0) return;
      const problems = undocumentedErrors(buildOpenApi(server.table()), answers);
      if (problems.length > 0) {
        throw new Error(
          `error answers the OpenAPI document does not list (add each code to its route's \`errors\` under apps/api/src/routes):\n${problems.join('\n')}`,
        );
      }
    },
  };
}

/** `error.code` of an answer's body: an object, or the stored JSON text of a replayed one. */
function codeOf(source: unknown): unknown {
  if (typeof source !== 'string') return jsonAt(source, 'error', 'code');
  try {
    return jsonAt(JSON.parse(source), 'error', 'code');
  } catch {
    return undefined;
  }
}
