import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { resolver, type OpenApiDocument, type Schema } from './operations.js';

/**
 * Checks answers against the documented response schemas, strictly: an object
 * that documents its properties may carry no other (the server serializes what
 * its presenters build, so an undocumented field would reach clients), and every
 * required one is there with its documented type. Objects that document no
 * properties (custom fields, metadata, payloads) stay open.
 */
export class ResponseShapes {
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly resolve: (schema: Schema) => Schema;

  constructor(private readonly doc: OpenApiDocument) {
    this.resolve = resolver(doc);
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
  }

  /** Problems of a body answered by `method path` (the OpenAPI path) with `status`; none when it fits. */
  problemsOf(method: string, path: string, status: number, body: unknown): string[] {
    const key = `${method} ${path} ${status}`;
    let validate = this.validators.get(key);
    if (validate === undefined) {
      const op = this.doc.paths[path]?.[method.toLowerCase()];
      const schema = op?.responses?.[String(status)]?.content?.['application/json']?.schema;
      if (schema === undefined) return [`status ${status} is not documented`];
      validate = this.ajv.compile(this.closed(schema, new Set()) as object);
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `response ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
  }

  /** The schema with local references inlined and documented objects closed. */
  private closed(schema: unknown, seen: ReadonlySet<string>): unknown {
    if (Array.isArray(schema)) return schema.map((s) => this.closed(s, seen));
    if (schema === null || typeof schema !== 'object') return schema;
    const node = schema as Schema;
    if (typeof node.$ref === 'string') {
      if (seen.has(node.$ref)) throw new Error(`recursive schema ${node.$ref}`);
      return this.closed(this.resolve(node), new Set([...seen, node.$ref]));
    }
    const out: Schema = {};
    for (const [k, v] of Object.entries(node)) {
      // `properties` maps names to schemas: each value is a schema, the map itself is not.
      out[k] =
        k === 'properties' && v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, this.closed(s, seen)]))
          : this.closed(v, seen);
    }
    if (out.properties !== undefined && out.additionalProperties === undefined) {
      out.additionalProperties = false;
    }
    return out;
  }
}
