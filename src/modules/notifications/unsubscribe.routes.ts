import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { getMember } from '../identity/index.js';
import { settingsOfMember, storeSettings } from './settings.service.js';
import type { UnsubscribeLinks } from './unsubscribe.js';

/** A page of its own: no script, no style, forms only back to this server. */
const PAGE_POLICY =
  "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_POLICY)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
    );
}

const refused = (reply: FastifyReply) =>
  page(
    reply,
    403,
    'This link is not valid',
    '<p>This unsubscribe link was not made by this Vitro server. Use the link in the ' +
      'email itself, or switch email off in the console’s notification settings.</p>',
  );

const tokenOf = (query: unknown) => {
  const t = (query as Record<string, unknown>).t;
  return typeof t === 'string' ? t : undefined;
};

/**
 * `/unsubscribe?t=…`, the link at the foot of every notification email: no sign-in,
 * the signed token is the permission. GET shows a button (mail scanners that open
 * links change nothing); POST, from that button or a mail client's one-click
 * unsubscribe (`List-Unsubscribe-Post`), switches the person's emails off.
 */
export function registerUnsubscribeRoutes(
  app: FastifyInstance,
  options: { readonly database: Database; readonly links: UnsubscribeLinks },
): void {
  void app.register(async (scope) => {
    // A form's body (or a mail client's `List-Unsubscribe=One-Click`) says nothing the link does not.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) =>
      done(null, undefined),
    );

    scope.get('/unsubscribe', { schema: { hide: true } }, async (req, reply) => {
      const token = tokenOf(req.query);
      if (options.links.memberOf(token) === null) return refused(reply);
      return page(
        reply,
        200,
        'Stop notification emails?',
        `<form method="post" action="/unsubscribe?t=${encodeURIComponent(token!)}">` +
          '<p>Vitro will stop sending you notification emails. Your inbox in the console ' +
          'keeps them.</p><button type="submit">Stop emails</button></form>',
      );
    });

    scope.post('/unsubscribe', { schema: { hide: true } }, async (req, reply) => {
      const memberId = options.links.memberOf(tokenOf(req.query));
      if (memberId === null) return refused(reply);
      const member = await getMember(options.database.db, memberId).catch(() => undefined);
      if (member !== undefined) {
        await inTransaction(options.database.db, async (trx) => {
          const current = await settingsOfMember(trx, member.workspace_id, member.id);
          if (!current.email) return;
          await storeSettings(
            trx,
            member.workspace_id,
            member.id,
            { ...current, email: false },
            new Date().toISOString(),
          );
        });
      }
      return page(
        reply,
        200,
        'Emails stopped',
        '<p>You will get no more notification emails. To have them again, switch email on ' +
          'in the console’s notification settings.</p>',
      );
    });
  });
}
