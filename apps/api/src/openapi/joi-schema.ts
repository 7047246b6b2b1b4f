import { isRecord } from '@payments/core';
import type { Schema } from 'joi';
import parse from 'joi-to-json';
import type { JsonSchema } from './json-schema';

/**
 * A joi schema as OpenAPI 3.1 JSON Schema, by joi-to-json. One gap is filled by hand:
 * `Joi.object().pattern(Joi.string(), value)` (metadata, evidence) comes out as a closed object
 * with no properties, which would forbid every key; it is a map, so `additionalProperties`
 * takes the value's schema and `propertyNames` the key's, and the map's size limits (joi's
 * `min`/`max` on the object) become `minProperties`/`maxProperties`.
 */
export function joiToJsonSchema(schema: Schema): JsonSchema {
  const json = converted(schema);
  fillPatternMaps(schema, json);
  return json;
}

/** joi-to-json's answer (typed `any`): a JSON Schema object. */
function converted(schema: Schema): JsonSchema {
  const json: unknown = parse(schema, 'open-api-3.1');
  if (!isRecord(json)) throw new TypeError('joi-to-json did not answer a JSON Schema object.');
  return json;
}

/** joi's own record of an object's keys and patterns (public on every schema as `$_terms`). */
interface ObjectTerms {
  keys?: { key: string; schema: Schema }[] | null;
  patterns?: ObjectPattern[];
}

interface ObjectPattern {
  schema?: Schema;
  regex?: RegExp;
  rule: Schema;
}

function fillPatternMaps(schema: Schema, json: JsonSchema): void {
  if (schema.type !== 'object') return;
  const terms = schema.$_terms as ObjectTerms;
  const properties = isRecord(json.properties) ? json.properties : {};
  for (const child of terms.keys ?? []) {
    const property = properties[child.key];
    if (isRecord(property)) fillPatternMaps(child.schema, property);
  }
  const keyed = terms.patterns?.find((pattern): pattern is ObjectPattern & { schema: Schema } => pattern.schema !== undefined);
  if (keyed) {
    json.additionalProperties = converted(keyed.rule);
    json.propertyNames = converted(keyed.schema);
    if (Object.keys(properties).length === 0) delete json.properties;
    const limit = (name: 'min' | 'max'): number | undefined => (schema.$_getRule(name)?.args as { limit?: number } | undefined)?.limit;
    if (limit('min') !== undefined) json.minProperties = limit('min');
    if (limit('max') !== undefined) json.maxProperties = limit('max');
  }
}
