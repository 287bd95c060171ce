import { beforeAll, describe, expect, it } from 'vitest';
import { sqliteTarget } from '../support/harness.js';
import { appSuite } from '../support/suite.js';

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every integer or number under `schema` that lacks a lower or an upper bound, as
 * `where` paths. Follows local `$ref`s, properties, items, maps and combinators.
 */
function unboundedNumbers(doc: Document, schema: Schema, where: string, seen = new Set<Schema>()) {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const found: string[] = [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
    const target = doc.components?.schemas?.[name];
    if (target === undefined) return [`${where} ($ref ${schema.$ref} not found)`];
    found.push(...unboundedNumbers(doc, target, where, seen));
  }
  const types = [schema.type].flat();
  if (types.includes('integer') || types.includes('number')) {
    const low = typeof schema.minimum === 'number' || typeof schema.exclusiveMinimum === 'number';
    const high = typeof schema.maximum === 'number' || typeof schema.exclusiveMaximum === 'number';
    if (!low || !high) found.push(where);
  }
  const children: [string, unknown][] = [];
  for (const [name, child] of Object.entries(isSchema(schema.properties) ? schema.properties : {}))
    children.push([`${where}.${name}`, child]);
  for (const [pattern, child] of Object.entries(
    isSchema(schema.patternProperties) ? schema.patternProperties : {},
  ))
    children.push([`${where}[/${pattern}/]`, child]);
  children.push([`${where}[*]`, schema.additionalProperties]);
  children.push([`${where}[]`, schema.items]);
  for (const keyword of ['prefixItems', 'anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list))
      list.forEach((child, i) => children.push([`${where}<${keyword}${i}>`, child]));
  }
  for (const keyword of ['not', 'if', 'then', 'else', 'contains'] as const)
    children.push([`${where}<${keyword}>`, schema[keyword]]);
  for (const [path, child] of children) {
    if (isSchema(child)) found.push(...unboundedNumbers(doc, child, path, seen));
  }
  return found;
}

describe('OpenAPI document: bounded numbers', () => {
  const { t } = appSuite(sqliteTarget());
  let doc: Document;
  beforeAll(async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  it('gives every integer and number of every request parameter and body a minimum and a maximum', () => {
    const unbounded: string[] = [];
    let numbers = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const at = `${method.toUpperCase()} ${path}`;
        const schemas: [string, Schema][] = [];
        for (const parameter of op.parameters ?? []) {
          if (parameter.schema)
            schemas.push([`${at} ${parameter.in} ${parameter.name}`, parameter.schema]);
        }
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
          if (media.schema) schemas.push([`${at} body (${type})`, media.schema]);
        }
        for (const [where, schema] of schemas) {
          numbers += JSON.stringify(schema).match(/"(integer|number)"/g)?.length ?? 0;
          unbounded.push(...unboundedNumbers(doc, schema, where));
        }
      }
    }
    // The walk must have met numbers at all, or it proves nothing.
    expect(numbers).toBeGreaterThan(0);
    expect(unbounded).toEqual([]);
  });
});
