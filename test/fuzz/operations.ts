/** The operations of a served OpenAPI document, as the fuzz test drives them. */

export type Schema = Record<string, unknown>;

export interface ParameterSpec {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly schema: Schema;
}

export interface OperationSpec {
  readonly operationId: string;
  readonly method: string;
  /** OpenAPI path, e.g. `/api/v1/plants/{id}`. */
  readonly path: string;
  readonly parameters: readonly ParameterSpec[];
  readonly body: Schema | null;
  /** The media types of a body that is a file (an import's CSV or XLSX); empty for JSON. */
  readonly files: readonly string[];
  /** A GET without path parameters whose `data` is an array. */
  readonly isList: boolean;
  /** The credentials it takes: `key` (an API key, perhaps a device token, or a session), `session` only, or a `sign-in-link`. */
  readonly credentials: 'key' | 'session' | 'sign-in-link';
}

interface RawOperation {
  operationId?: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Follows a local `$ref` (to components.schemas); other schemas come back as they are. */
export function resolver(doc: OpenApiDocument): (schema: Schema) => Schema {
  return function resolve(schema) {
    if (typeof schema.$ref !== 'string') return schema;
    const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
    const target = doc.components?.schemas?.[name];
    if (target === undefined) throw new Error(`unresolved $ref ${schema.$ref}`);
    return resolve(target);
  };
}

/** `schema` with every local `$ref` inside it replaced by its target, at any depth. */
function inliner(doc: OpenApiDocument): (schema: Schema) => Schema {
  const resolve = resolver(doc);
  const inline = (value: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, seen));
    if (typeof value !== 'object' || value === null) return value;
    const ref = (value as Schema).$ref;
    if (typeof ref === 'string') {
      if (seen.includes(ref)) throw new Error(`recursive schema ${ref}`);
      return inline(resolve(value as Schema), [...seen, ref]);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v, seen)]));
  };
  return (schema) => inline(schema, []) as Schema;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The operations, their parameter and body schemas inlined (no `$ref` left in them). */
export function operationsOf(doc: OpenApiDocument): OperationSpec[] {
  const resolve = resolver(doc);
  const inline = inliner(doc);
  const operations: OperationSpec[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!METHODS.includes(method)) continue;
      const parameters = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
        .map((p) => ({
          name: p.name,
          in: p.in as ParameterSpec['in'],
          required: p.required === true || p.in === 'path',
          schema: inline(p.schema ?? {}),
        }));
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'));
      const successSchema = success?.[1].content?.['application/json']?.schema;
      const data = successSchema
        ? (resolve(successSchema).properties as Schema | undefined)
        : undefined;
      const dataSchema = data?.data ? resolve(data.data as Schema) : undefined;
      const schemes = (op.security ?? []).flatMap((requirement) => Object.keys(requirement));
      operations.push({
        operationId: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        body: bodySchema ? inline(bodySchema) : null,
        files: bodySchema ? [] : Object.keys(op.requestBody?.content ?? {}),
        isList:
          method === 'get' &&
          !parameters.some((p) => p.in === 'path') &&
          dataSchema?.type === 'array',
        credentials: schemes.includes('bearerAuth')
          ? 'key'
          : schemes.includes('signInLink')
            ? 'sign-in-link'
            : 'session',
      });
    }
  }
  return operations;
}
