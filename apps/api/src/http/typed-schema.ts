import Joi from 'joi';

/*
 * joi's typings carry the validated value's type (`Joi.string()` is a StringSchema<string>) but
 * not whether a key is always there, nor what `valid()` or `allow(null)` narrow or widen it to.
 * These few builders add that, so a route's payload, query and params types are read off its
 * schemas. Each makes exactly the joi schema written out by hand: validation, messages and the
 * OpenAPI output do not change.
 */

declare const present: unique symbol;
declare const nullable: unique symbol;

/** A key that is always there once validated: required, or filled by a default. */
export interface Present {
  readonly [present]: true;
}

/** A schema that lets null through (joi's own generic cannot say so: inference drops the null). */
export interface Nullable {
  readonly [nullable]: true;
}

/**
 * What the builders take. Not `Joi.Schema`: that is `Schema<any>`, and as the expected type of an
 * argument it makes `Joi.string()` a StringSchema<any>, which types nothing.
 */
type AnySchema = Joi.SchemaInternals;

/** The value a schema validates to. */
export type ValueOf<S> = (S extends Joi.AnySchema<infer T> ? T : never) | (S extends Nullable ? null : never);

type PresentKeys<F> = { [K in keyof F]: F[K] extends Present ? K : never }[keyof F];

/** The value of `objectSchema(fields)`: present keys required, the others optional. */
export type ObjectValue<F> = { readonly [K in PresentKeys<F>]: ValueOf<F[K]> } & { readonly [K in Exclude<keyof F, PresentKeys<F>>]?: ValueOf<F[K]> };

/** `Joi.object(fields)`, typed from its fields. */
export function objectSchema<F extends Record<string, AnySchema>>(fields: F): Joi.ObjectSchema<ObjectValue<F>> {
  return Joi.object(fields);
}

/** `change` made by joi to `schema` (a new schema of the same kind), with the marks `M` the change makes true. */
function changed<S extends AnySchema, M>(schema: S, change: (schema: Joi.Schema) => Joi.Schema): S & M {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- every builder's S is a joi schema, and joi's methods answer one of the same kind; the marks exist in types only
  return change(schema as unknown as Joi.Schema) as unknown as S & M;
}

/** `schema.required()`. */
export function required<S extends AnySchema>(schema: S): S & Present {
  return changed<S, Present>(schema, (joi) => joi.required());
}

/** `schema.default(value)`: the key is there after validation even when the caller left it out. */
export function withDefault<S extends AnySchema>(schema: S, value: ValueOf<S> & Joi.BasicType): S & Present {
  return changed<S, Present>(schema, (joi) => joi.default(value));
}

/** `Joi.string().valid(...values)`, typed as the union of the values. */
export function oneOf<const T extends string>(values: readonly T[]): Joi.StringSchema<T> {
  return Joi.string<T>().valid(...values);
}

/** `schema.allow(null)`. */
export function orNull<S extends AnySchema>(schema: S): S & Nullable {
  return changed<S, Nullable>(schema, (joi) => joi.allow(null));
}
