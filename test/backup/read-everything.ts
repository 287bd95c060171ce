import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { operationsOf, type OpenApiDocument, type OperationSpec } from '../fuzz/operations.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely
type Json = any;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `plants` -> `plant`, `media-recipes` -> `media_recipe`: the kind a collection holds. */
function kindOf(segment: string): string {
  return segment.replace(/-/g, '_').replace(/s$/, '');
}

/** The collection a path reads, e.g. `/api/v1/sop-runs/{id}/events` -> `sop_run`. */
function kindOfPath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '' && !s.startsWith('{'));
  const before = path.split('/{')[0]!.split('/').pop() ?? '';
  return kindOf(path.includes('{') ? before : (segments.at(-1) ?? ''));
}

/**
 * Every answer a key gets from every GET operation of the served OpenAPI
 * document: lists read to their last page, each required query parameter tried
 * with every value of its enum or every id seen of the kind it names, each
 * `{id}` with every id seen of its collection. Keyed by request; photo links,
 * which are signed anew for each answer, replaced by the SHA-256 of the bytes
 * they serve. Operations other branches add are read the same way.
 */
export async function readEverything(
  app: FastifyInstance,
  key: string,
  /** Ids by kind (`sop_run`) that no read lists, e.g. read from the database. */
  seedIds: Readonly<Record<string, readonly string[]>> = {},
): Promise<Map<string, { status: number; body: Json }>> {
  const headers = { authorization: `Bearer ${key}` };
  const doc = (await app.inject({ url: '/api/v1/openapi.json' })).json<OpenApiDocument>();
  const operations = operationsOf(doc).filter((op) => op.method === 'GET');
  const idsByKind = new Map<string, Set<string>>();
  const valuesByField = new Map<string, Set<string>>();
  const answers = new Map<string, { status: number; body: Json }>();

  const remember = (kind: string, id: unknown) => {
    if (typeof id !== 'string' || !UUID.test(id)) return;
    if (!idsByKind.has(kind)) idsByKind.set(kind, new Set());
    idsByKind.get(kind)!.add(id);
  };
  for (const [kind, ids] of Object.entries(seedIds)) ids.forEach((id) => remember(kind, id));
  const collect = (value: Json, kind: string) => {
    if (Array.isArray(value)) value.forEach((item) => collect(item, kind));
    else if (typeof value === 'object' && value !== null) {
      for (const [field, inner] of Object.entries(value)) {
        if (field === 'id') remember(kind, inner);
        else if (field.endsWith('_id')) remember(field.slice(0, -3), inner);
        if (typeof inner === 'string') {
          if (!valuesByField.has(field)) valuesByField.set(field, new Set());
          valuesByField.get(field)!.add(inner);
        } else collect(inner, kind);
      }
    }
  };
  const photoDigest = async (url: string): Promise<string> => {
    const res = await app.inject({ url: new URL(url).pathname + new URL(url).search });
    return `${res.statusCode} sha256:${createHash('sha256').update(res.rawPayload).digest('hex')}`;
  };
  const normalise = async (value: Json): Promise<Json> => {
    if (Array.isArray(value)) return Promise.all(value.map(normalise));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, Json> = {};
    for (const [field, inner] of Object.entries(value)) {
      if (field === 'view_url_expires_at') continue;
      out[field] =
        field === 'view_url' && typeof inner === 'string'
          ? await photoDigest(inner)
          : await normalise(inner);
    }
    return out;
  };

  /** Reads a URL to its last page; the items of every page make one answer. */
  const read = async (url: string, kind: string) => {
    let cursor: string | null = null;
    let status = 0;
    const pages: Json[] = [];
    do {
      const page: string =
        cursor === null
          ? url
          : `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
      const res = await app.inject({ url: page, headers });
      status = res.statusCode;
      const body = res.json();
      collect(body.data, kind);
      pages.push(Array.isArray(body.data) ? body.data : body);
      cursor = status === 200 ? (body.meta?.next_cursor ?? null) : null;
    } while (cursor !== null);
    const body = pages.length === 1 ? pages[0] : pages.flat();
    answers.set(url, { status, body: await normalise(body) });
  };

  /** The ids seen of a kind; one that exists nowhere when none was (its 404 is compared too). */
  const idsFor = (kind: string): string[] => {
    const known = idsByKind.get(kind);
    if (known !== undefined && known.size > 0) return [...known].sort();
    return ['01a1fd6e-1c47-7086-b1d4-b2fc11449b2a'];
  };
  const queryValues = (op: OperationSpec, name: string, chosen: Record<string, string>) => {
    const parameter = op.parameters.find((p) => p.name === name)!;
    const values = parameter.schema.enum as string[] | undefined;
    if (values !== undefined) return values;
    if (parameter.schema.format === 'uuid' || name.endsWith('_id')) {
      const sibling = Object.values(chosen)[0];
      return idsFor(sibling !== undefined ? kindOf(sibling) : kindOf(name.replace(/_id$/, '')));
    }
    const seen = valuesByField.get(name);
    return seen !== undefined && seen.size > 0 ? [...seen].sort() : ['x'];
  };
  const expand = (op: OperationSpec): string[] => {
    const required = op.parameters.filter((p) => p.in === 'query' && p.required);
    // Enums first: an id parameter then takes ids of the kind the enum chose.
    required.sort(
      (a, b) => Number(b.schema.enum !== undefined) - Number(a.schema.enum !== undefined),
    );
    let combos: Record<string, string>[] = [{}];
    for (const parameter of required) {
      combos = combos.flatMap((chosen) =>
        queryValues(op, parameter.name, chosen).map((value) => ({
          ...chosen,
          [parameter.name]: value,
        })),
      );
    }
    return combos.map((chosen) => {
      const query = new URLSearchParams(chosen).toString();
      return query === '' ? '' : `?${query}`;
    });
  };

  const withoutPath = operations.filter((op) => !op.parameters.some((p) => p.in === 'path'));
  const plain = withoutPath.filter(
    (op) => !op.parameters.some((p) => p.in === 'query' && p.required),
  );
  for (const op of plain) await read(op.path, kindOfPath(op.path));
  for (const op of withoutPath.filter((op) => !plain.includes(op))) {
    for (const query of expand(op)) await read(op.path + query, kindOfPath(op.path));
  }
  for (const op of operations.filter((op) => !withoutPath.includes(op))) {
    const parameter = op.parameters.find((p) => p.in === 'path')!;
    for (const id of idsFor(kindOfPath(op.path))) {
      const url = op.path.replace(`{${parameter.name}}`, id);
      if (url.includes('{')) continue;
      for (const query of expand(op)) await read(url + query, kindOfPath(op.path));
    }
  }
  return answers;
}
