import { isDeepStrictEqual } from 'node:util';

/**
 * The building blocks of the answers' schemas, as JSON Schema 2020-12 (the dialect of OpenAPI
 * 3.1). Each capability names the schemas of what it answers beside its presenters, as a family
 * (`components`); a route says which member it answers with, and the documents gather the families
 * of their routes. Objects stay open (no `additionalProperties: false`) because adding a response
 * field is not a new API version; the answer validation test closes them so an undocumented field
 * still fails.
 */
export type JsonSchema = Record<string, unknown>;

/** A schema of `components.schemas`: its name and every schema of its family (what its `$ref`s reach). */
export interface Component {
  readonly name: string;
  readonly family: Readonly<Record<string, JsonSchema>>;
}

/** Names the schemas of one capability's answers; each member carries the whole family. */
export function components<Name extends string>(family: Readonly<Record<Name, JsonSchema>>): { readonly [K in Name]: Component } {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- one entry per key of the family, and the family's keys are its names
  return Object.fromEntries(Object.keys(family).map((name) => [name, { name, family }])) as { readonly [K in Name]: Component };
}

const SCHEMA_REF = '#/components/schemas/';

/**
 * Adds a component to a document's schemas, with the members of its family it refers to (and
 * those they refer to): a document holds no schema nothing of it uses. A name is one schema: two
 * different ones under one name would make one `$ref` mean two things, so that is refused when
 * the document is built. (Compared by value: Hapi copies a route's settings, so the same schema
 * arrives as equal copies.)
 */
export function includeComponent(schemas: Record<string, JsonSchema>, component: Component): string {
  const pending = [component.name];
  const reached = new Set<string>();
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reached.has(name)) continue;
    reached.add(name);
    const schema = component.family[name];
    if (schema === undefined) throw new Error(`${component.name} refers to ${name}, which its family does not hold`);
    if (schemas[name] !== undefined && !isDeepStrictEqual(schemas[name], schema)) throw new Error(`Two different schemas are named ${name}`);
    schemas[name] = schema;
    pending.push(...refsIn(schema));
  }
  return component.name;
}

/** The names of the schemas a schema's `$ref`s point at. */
function refsIn(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(refsIn);
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF) ? [value.slice(SCHEMA_REF.length)] : refsIn(value),
  );
}

export const ref = (name: string): JsonSchema => ({ $ref: `${SCHEMA_REF}${name}` });
export const currency: JsonSchema = { type: 'string', pattern: '^[A-Z]{3}$' };
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const int64: JsonSchema = { type: 'integer', format: 'int64' };
export const mode: JsonSchema = { type: 'string', enum: ['live', 'test'] };
export const stringMap: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
export const constant = (value: string | boolean): JsonSchema => ({ const: value });
export const idMatching = (pattern: RegExp): JsonSchema => ({ type: 'string', pattern: pattern.source });

export function object(required: string[], properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return { type: 'object', ...(description ? { description } : {}), required, properties };
}

/**
 * A page of a list, newest first unless said. `example` is an item: the page's example holds it
 * alone, with `has_more` false.
 */
export function list(item: string, example?: unknown): JsonSchema {
  return {
    ...object(
      ['object', 'data', 'has_more'],
      {
        object: { ...constant('list'), description: 'Always `list`.' },
        data: { type: 'array', items: ref(item), description: 'The items of this page.' },
        has_more: {
          type: 'boolean',
          description: 'Whether more items follow: ask for the next page with `starting_after` set to the `id` of the last item of this one.',
        },
      },
      `A page of ${item}.`,
    ),
    ...(example === undefined ? {} : { examples: [{ object: 'list', data: [example], has_more: false }] }),
  };
}

/** An amount and its currency: families whose objects carry one spread this in (`...MONEY`). */
export const MONEY = {
  Money: object(
    ['amount', 'currency'],
    {
      amount: { ...int64, description: 'Minor units of `currency` (satang for THB, cents for USD): an integer, never a decimal.' },
      currency: { ...currency, description: 'ISO 4217 code, upper case.' },
    },
    'An amount in minor units and its currency. Amounts of payment intents, fees, nets, disputes, settlements and quotes are at most 2^53 − 1 (9007199254740991).',
  ),
} as const;

/** The envelope of every error, in both documents. */
export const ERROR = components({
  Error: object(
    ['error'],
    {
      error: {
        ...object(['code', 'message', 'request_id'], {
          code: { type: 'string', description: 'Stable: the field to branch on. Each operation lists the codes each of its error statuses carries.' },
          message: { type: 'string', description: 'For a person; may change. Never repeats the value sent.' },
          param: {
            type: 'string',
            description:
              'The field, query parameter or header at fault, as the request named it (`amount`, `metadata.order`, `Idempotency-Key`); always there with invalid_parameter.',
          },
          request_id: {
            type: 'string',
            description: 'The id of the request that was refused (the Request-Id header of its answer); a replayed refusal keeps the first request’s.',
          },
        }),
        description: 'What was refused, and why.',
      },
    },
    'The envelope of every error answer.',
  ),
}).Error;
