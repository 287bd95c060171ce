import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DIGEST_HOUR,
  EmailWorker,
  UnsubscribeLinks,
} from '../../src/modules/notifications/index.js';
import { runInProcess, tempDir } from '../cli/support.js';
import { freePort } from '../support/local-services.js';
import type { Actor } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { client, type Client, dataOf, newPlant } from '../support/helpers.js';

interface Received {
  readonly to: string[];
  readonly raw: string;
}

/** A real SMTP server on a loopback port; `refuse` transient failures come first. */
async function startSmtp(): Promise<{
  url: string;
  mail: Received[];
  refuse: { next: number };
  close(): Promise<void>;
}> {
  const mail: Received[] = [];
  const refuse = { next: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.next > 0) {
        refuse.next -= 1;
        const error = Object.assign(new Error('Mailbox busy, try again later'), {
          responseCode: 451,
        });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mail.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mail,
    refuse,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A raw message with its folded headers and quoted-printable soft breaks joined again. */
const unfolded = (raw: string) =>
  raw
    .replace(/\r\n[ \t]+/g, ' ')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');

const PUBLIC_URL = 'http://lab.example.test';
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());

describeOnDatabases('Notifications: email', (target) => {
  const { t, lab, owner } = labSuite(target, {
    env: { SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL },
  });
  let luis: Actor;
  let asLuis: Client;
  let clock: number;
  let worker: EmailWorker;
  let links: UnsubscribeLinks;
  let address: string;
  beforeEach(async () => {
    smtp.mail.length = 0;
    smtp.refuse.next = 0;
    luis = await lab.actor('member');
    asLuis = client(t, luis);
    await t.database.db
      .updateTable('members')
      .set({ email: (address = `luis.${luis.memberId}@lab.example.test`) })
      .where('id', '=', luis.memberId)
      .execute();
    // The worker's clock runs a little ahead: what the requests queue is due at once.
    clock = Date.now() + 5000;
    // Emails other tests left pending are not this test's (the outbox is the server's).
    await t.database.db.deleteFrom('notification_emails').where('status', '=', 'pending').execute();
    links = new UnsubscribeLinks(t.config.secret, PUBLIC_URL);
    worker = new EmailWorker({
      database: t.database,
      smtp: { url: smtp.url, from: t.config.smtp!.from },
      publicUrl: PUBLIC_URL,
      links,
      log: t.app.log,
      now: () => clock,
    });
    return () => worker.stop();
  });

  const mention = async () => {
    const plant = await newPlant(owner, { species: 'Anthurium andraeanum' });
    return dataOf(
      await owner.post('/api/v1/comments', {
        entity_type: 'plant',
        entity_id: plant.id,
        body: 'Halo on the base',
        mentioned_user_ids: [luis.memberId],
      }),
      201,
    );
  };
  const outbox = () =>
    t.database.db
      .selectFrom('notification_emails')
      .select(['kind', 'status', 'attempts', 'last_error'])
      .where('member_id', '=', luis.memberId)
      .execute();
  /** Sends what is due as the worker does; each email is in one of the server's messages. */
  const sendDue = () => worker.tick();

  it('says in the settings that this server sends email, and to which address', async () => {
    const settings = dataOf(await asLuis.get('/api/v1/notification-settings'), 200);
    expect(settings).toMatchObject({ email: true, email_available: true });
    expect(settings.email_address).toMatch(/^luis\./);
  });

  it('emails a mention at once, once, with a link to the record and an unsubscribe link', async () => {
    await mention();
    expect(await sendDue()).toBe(1);
    expect(smtp.mail).toHaveLength(1);
    const [message] = smtp.mail;
    expect(message!.to).toEqual([address]);
    const raw = unfolded(message!.raw);
    expect(raw).toMatch(/^Subject: .*mentioned_you/m);
    expect(raw).toContain('owner member mentioned you on "Anthurium andraeanum".');
    expect(raw).toContain(`${PUBLIC_URL}/plants/`);
    expect(raw).toContain(`List-Unsubscribe: <${links.link(luis.memberId)}>`);
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(await outbox()).toEqual([
      { kind: 'immediate', status: 'sent', attempts: 1, last_error: null },
    ]);
    expect(await sendDue()).toBe(0);
    expect(smtp.mail).toHaveLength(1);
  });

  it('sends once after a transient SMTP failure, retried later', async () => {
    smtp.refuse.next = 1;
    await mention();
    expect(await sendDue()).toBe(1);
    expect(smtp.mail).toHaveLength(0);
    expect(await outbox()).toMatchObject([{ status: 'pending', attempts: 1 }]);
    expect((await outbox())[0]!.last_error).toMatch(/451|try again/i);
    // Not before its retry is due; then once.
    expect(await sendDue()).toBe(0);
    clock += 61_000;
    expect(await sendDue()).toBe(1);
    clock += 3_600_000;
    expect(await sendDue()).toBe(0);
    expect(smtp.mail).toHaveLength(1);
    expect(await outbox()).toMatchObject([{ status: 'sent', attempts: 2, last_error: null }]);
  });

  it('queues a day’s digest of the other kinds once, at the person’s morning', async () => {
    dataOf(
      await owner.post('/api/v1/tasks', { title: 'Prepare MS medium', assigned_to: luis.memberId }),
      201,
    );
    expect(await sendDue()).toBe(0);
    // The next morning's digest hour after the task was made (a first digest covers the
    // day before it, so a morning more than a day away would leave the task out).
    const made = new Date();
    const morning = made.getUTCHours() < DIGEST_HOUR ? made : new Date(made.getTime() + 86_400_000);
    clock = Date.UTC(
      morning.getUTCFullYear(),
      morning.getUTCMonth(),
      morning.getUTCDate(),
      DIGEST_HOUR - 1,
    );
    await worker.queueDigests();
    expect(await outbox()).toEqual([]);
    clock += 3_600_000;
    await worker.queueDigests();
    expect(await sendDue()).toBeGreaterThanOrEqual(1);
    const mine = smtp.mail.filter((m) => m.to[0] === address);
    expect(mine).toHaveLength(1);
    expect(unfolded(mine[0]!.raw)).toMatch(/assigned you the task .*Prepare MS medium/);
    clock += 3_600_000;
    await worker.queueDigests();
    await sendDue();
    expect(smtp.mail.filter((m) => m.to[0] === address)).toHaveLength(1);
    expect(await outbox()).toMatchObject([{ kind: 'digest', status: 'sent' }]);
  });

  it('stops emails from the unsubscribe link, without signing in; a forged link is refused', async () => {
    const link = links.link(luis.memberId);
    const path = link.slice(PUBLIC_URL.length);
    const shown = await t.request({ method: 'GET', url: path });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toMatch(/text\/html/);
    expect(shown.body).toContain('<form method="post"');
    // A scanner opening the link changed nothing.
    expect(dataOf(await asLuis.get('/api/v1/notification-settings'), 200).email).toBe(true);

    const other = await lab.actor('member');
    const forged = [
      path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      path.replace(luis.memberId, other.memberId),
      '/unsubscribe?t=nothing',
      '/unsubscribe',
    ];
    for (const url of forged) {
      const res = await t.request({ method: 'POST', url });
      expect(res.statusCode, url).toBe(403);
    }
    expect(dataOf(await asLuis.get('/api/v1/notification-settings'), 200).email).toBe(true);
    expect(dataOf(await client(t, other).get('/api/v1/notification-settings'), 200).email).toBe(
      true,
    );

    // A mail client's one-click unsubscribe.
    const done = await t.request({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Emails stopped');
    expect(dataOf(await asLuis.get('/api/v1/notification-settings'), 200).email).toBe(false);
    await mention();
    expect(await sendDue()).toBe(0);
    expect(smtp.mail).toHaveLength(0);
    expect(await outbox()).toEqual([]);
  });
});

describe('vitro doctor and SMTP', () => {
  it('checks the SMTP connection when SMTP_URL is set', async () => {
    const env = (url: string) => ({
      VITRO_DATA_DIR: tempDir(),
      LOG_LEVEL: 'silent',
      SMTP_URL: url,
    });
    const smtpCheck = async (url: string) =>
      (await runInProcess(env(url), 'doctor', '--json')).out.checks.find(
        (c: { check: string }) => c.check === 'smtp',
      );
    expect(await smtpCheck(smtp.url)).toMatchObject({ status: 'ok' });
    const closed = await smtpCheck(`smtp://127.0.0.1:${await freePort()}`);
    expect(closed).toMatchObject({ status: 'fail', fix: expect.stringContaining('SMTP_URL') });
  });
});
