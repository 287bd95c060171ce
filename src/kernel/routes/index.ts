import type {
  FastifyInstance,
  FastifyRequest,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import Type, { type TSchema } from 'typebox';
import type { AccessRule } from '../authorize.js';
import type { PageSettings } from '../paging.js';
import { ErrorEnvelope, Money } from '../schemas.js';
import { runList, runRead, runWrite, scopeOf, type WriteSteps } from './commit.js';
import {
  accessHook,
  emptyBodyHook,
  idempotencyHook,
  pagingHook,
  readingsHook,
  readingsRefundHook,
  releaseLeftoverClaim,
} from './hooks.js';
import type { Kernel } from './kernel.js';
import { checkSentBack, readOnlyFieldsHook } from './read-only-fields.js';
import { routeSchema, type Operation } from './schema.js';
import type {
  ListSpec,
  OperationSpec,
  PreparedWriteSpec,
  RawBody,
  ReadSpec,
  WriteOptions,
  WriteSpec,
} from './spec.js';

export type { Kernel } from './kernel.js';
export type * from './spec.js';

/** Route settings the error handler and metrics read back from a request. */
export interface RouteConfig {
  operationId: string;
  failureCode: OperationSpec<TSchema, TSchema>['failureCode'];
  hideFieldInErrors: boolean;
  /** The noun of a malformed path id's 404. */
  notFound: string;
  /** The body is JSON whatever its Content-Type says (device endpoints). */
  bodyOfAnyType: boolean;
  /** A file body (its media types and size limit), read by the content-type parsers. */
  rawBody: RawBody | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    vitro?: RouteConfig;
  }
}

/**
 * How modules declare their operations. Each kind of operation has its own
 * handler type: a read gets the database, a list returns a page, a write gets
 * the request's transaction and nothing else, and a write with slow work does it
 * in a `prepare` step that has no transaction at all. The compiler keeps them
 * apart; the kernel does the rest (access, validation, paging, idempotency,
 * transaction, envelope) the same way for all.
 */
export interface Routes {
  read<P extends TSchema, Q extends TSchema, D extends TSchema, M extends TSchema>(
    spec: ReadSpec<P, Q, D, M>,
  ): void;
  list<P extends TSchema, Q extends TSchema, I extends TSchema>(spec: ListSpec<P, Q, I>): void;
  write<
    P extends TSchema,
    Q extends TSchema,
    B extends TSchema,
    D extends TSchema,
    M extends TSchema,
  >(
    spec: WriteSpec<P, Q, B, D, M>,
  ): void;
  prepareAndWrite<
    P extends TSchema,
    Q extends TSchema,
    B extends TSchema,
    D extends TSchema,
    M extends TSchema,
    X,
  >(
    spec: PreparedWriteSpec<P, Q, B, D, M, X>,
  ): void;
}

function ruleOf(spec: OperationSpec<TSchema, TSchema>): AccessRule {
  return {
    credentials: spec.credentials ?? 'key',
    scope: spec.scope,
    plan: spec.plan ?? 'full',
    feature: spec.feature ?? null,
    role: spec.role ?? null,
  };
}

function pageSettings(spec: ListSpec<TSchema, TSchema, TSchema>): PageSettings {
  return {
    list: spec.paging.list,
    defaultLimit: spec.paging.defaultLimit ?? 50,
    maxLimit: spec.paging.maxLimit ?? 200,
    csv: spec.paging.csv ?? false,
  };
}

/** A GET operation (a read or a list): no body, no Idempotency-Key, 200. */
function readOperation(
  spec: OperationSpec<TSchema, TSchema> & { meta?: TSchema },
  own: Pick<Operation, 'data' | 'metaRequired' | 'paging' | 'readCsv'>,
): Operation {
  return {
    method: 'GET',
    spec,
    rule: ruleOf(spec),
    status: 200,
    body: null,
    bodyOptional: false,
    bodyOfAnyType: false,
    rawBody: null,
    meta: spec.meta ?? null,
    idempotency: null,
    ...own,
  };
}

export function createRoutes(app: FastifyInstance, kernel: Kernel): Routes {
  app.addSchema(ErrorEnvelope);
  app.addSchema(Money);
  const register = (
    op: Operation,
    handler: ReturnType<typeof runRead>,
    extra: {
      preValidation?: preValidationAsyncHookHandler[];
      preHandler?: preHandlerAsyncHookHandler[];
      onSend?: onSendAsyncHookHandler[];
      hideFieldInErrors?: boolean;
      bodyOfAnyType?: boolean;
    } = {},
  ) => {
    const idempotent = op.idempotency === 'store';
    app.route({
      method: op.method,
      url: op.spec.url,
      schema: routeSchema(op),
      config: {
        vitro: {
          operationId: op.spec.operationId,
          failureCode: op.spec.failureCode,
          hideFieldInErrors: extra.hideFieldInErrors ?? false,
          notFound: op.spec.notFound ?? 'Record',
          bodyOfAnyType: extra.bodyOfAnyType ?? false,
          rawBody: op.rawBody,
        },
      },
      onRequest: accessHook(kernel, op),
      preValidation: extra.preValidation ?? [],
      preHandler: [
        ...(op.paging !== null ? [pagingHook(kernel, op)] : []),
        ...(extra.preHandler ?? []),
      ],
      ...(idempotent ? { onResponse: releaseLeftoverClaim(kernel) } : {}),
      ...(extra.onSend ? { onSend: extra.onSend } : {}),
      handler,
    });
  };

  const write = (
    spec: WriteOptions<TSchema, TSchema, TSchema, TSchema, TSchema>,
    steps: WriteSteps,
  ) => {
    const op: Operation = {
      method: spec.method,
      spec,
      rule: ruleOf(spec),
      status: spec.status ?? (spec.method === 'POST' ? 201 : 200),
      body: spec.body ?? null,
      bodyOptional: spec.bodyOptional ?? false,
      bodyOfAnyType: spec.bodyOfAnyType ?? false,
      rawBody: spec.rawBody ?? null,
      data: spec.data,
      meta: spec.meta ?? null,
      metaRequired: spec.metaRequired ?? false,
      paging: null,
      readCsv: false,
      idempotency: spec.idempotency ?? 'store',
    };
    const onReplay = spec.onReplay;
    const preHandler: preHandlerAsyncHookHandler[] = [];
    if (spec.readings) preHandler.push(readingsHook(kernel, spec.readings));
    if (op.idempotency === 'store') {
      preHandler.push(
        idempotencyHook(
          kernel,
          op,
          onReplay
            ? async (payload, req: FastifyRequest) => onReplay(payload, scopeOf(kernel, req))
            : null,
        ),
      );
    }
    const preValidation: preValidationAsyncHookHandler[] = [];
    if (spec.bodyOptional) preValidation.push(emptyBodyHook);
    const current = spec.current;
    const readOnly = current === undefined ? null : readOnlyFieldsHook(spec.body, spec.data);
    if (readOnly !== null) preValidation.push(readOnly);
    const checked: WriteSteps =
      current === undefined
        ? steps
        : {
            ...steps,
            write: async (req, ctx, prepared) => {
              await checkSentBack(req, () => current(req, ctx));
              return steps.write(req, ctx, prepared);
            },
          };
    register(op, runWrite(kernel, op, checked), {
      preValidation,
      preHandler,
      ...(spec.readings ? { onSend: [readingsRefundHook(kernel)] } : {}),
      hideFieldInErrors: spec.hideFieldInErrors ?? false,
      bodyOfAnyType: op.bodyOfAnyType,
    });
  };

  return {
    read(spec) {
      const op = readOperation(spec, {
        data: spec.data,
        metaRequired: spec.metaRequired ?? false,
        paging: null,
        readCsv: spec.csv !== undefined,
      });
      const csv = spec.csv ?? null;
      register(op, runRead(kernel, op, spec.handler, csv));
    },
    list(spec) {
      const op = readOperation(spec, {
        data: Type.Array(spec.item),
        metaRequired: true,
        paging: pageSettings(spec),
        readCsv: false,
      });
      register(op, runList(kernel, op, spec.handler, spec.item));
    },
    write(spec) {
      write(spec as WriteOptions<TSchema, TSchema, TSchema, TSchema, TSchema>, {
        prepare: null,
        write: (req, ctx) => spec.handler(req as never, ctx),
        discard: null,
      });
    },
    prepareAndWrite(spec) {
      write(spec as WriteOptions<TSchema, TSchema, TSchema, TSchema, TSchema>, {
        prepare: (req, ctx) => spec.prepare(req as never, ctx),
        write: (req, ctx, prepared) => spec.write(req as never, ctx, prepared as never),
        discard: spec.discard ? (prepared, ctx) => spec.discard!(prepared as never, ctx) : null,
      });
    },
  };
}
