import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { SmtpConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { leaseOf } from '../../db/leases.js';
import { inTransaction } from '../../db/transaction.js';
import { localDate, wallClock } from '../../lib/zoned-time.js';
import { pendingEmail } from './notify.js';
import { listMembers, listWorkspaces, type MemberRow } from '../identity/index.js';
import { digestEmail, immediateEmail, type Email } from './compose.js';
import {
  claimDueEmails,
  insertEmails,
  lastDigests,
  releaseEmails,
  settleEmail,
  type EmailRow,
} from './emails.repository.js';
import { findByEvent, unreadBetween } from './notifications.repository.js';
import { IMMEDIATE_KINDS, NOTIFICATION_KINDS } from './notifications.schemas.js';
import { settingsByMember, settingsOfMember } from './settings.service.js';
import type { UnsubscribeLinks } from './unsubscribe.js';

/**
 * Sends notification emails after the writes that queued them commit: every due
 * email of the outbox (`notification_emails`), taken under a lease so that two
 * processes never send the same one, and settled (sent, retried later, failed,
 * skipped) once its attempt ends. It never runs inside a request. Once a day, when
 * a person's day reaches DIGEST_HOUR in their time zone, it queues their digest of
 * the other kinds.
 *
 * An email is sent once: its row is settled right after the SMTP server accepts it.
 * Only a process that dies between the two sends it again when its lease runs out,
 * with the same Message-ID, by which mail systems drop the copy.
 */

const POLL_MS = 1000;
const BATCH = 20;
const LEASE_MS = 2 * 60_000;
/** After a failed attempt: the next in 1 minute, 5, 30, 2 hours, 6 hours; then it failed. */
const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000];
/** The local hour a person's digest is sent at. */
export const DIGEST_HOUR = 7;
const DIGEST_EVERY_MS = 10 * 60_000;
const DIGEST_LEASE = 'notification-digests';
const DIGEST_MAX_ITEMS = 100;
const DAY_MS = 86_400_000;
const DIGEST_KINDS = NOTIFICATION_KINDS.filter((kind) => !IMMEDIATE_KINDS.has(kind));

export interface EmailWorkerOptions {
  readonly database: Database;
  readonly smtp: SmtpConfig;
  readonly publicUrl: string;
  readonly links: UnsubscribeLinks;
  readonly log: FastifyBaseLogger;
  /** The clock (tests move it). */
  readonly now?: () => number;
  readonly pollMs?: number;
}

type Outcome = Pick<EmailRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'sent_at'>;

const iso = (ms: number) => new Date(ms).toISOString();

export class EmailWorker {
  readonly #options: EmailWorkerOptions;
  readonly #transport: Transporter;
  readonly #owner = randomUUID();
  readonly #now: () => number;
  readonly #stop = new AbortController();
  #running: Promise<void> | null = null;
  #lastDigests = 0;

  constructor(options: EmailWorkerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#transport = nodemailer.createTransport(options.smtp.url);
  }

  /** Sends the emails due now, a batch at a time, until none is due. Answers the attempts made. */
  async tick(): Promise<number> {
    let made = 0;
    for (;;) {
      const now = this.#now();
      const taken = await claimDueEmails(
        this.#options.database.db,
        this.#owner,
        iso(now),
        iso(now + LEASE_MS),
        BATCH,
      );
      for (const row of taken) {
        await this.#attempt(row);
        made += 1;
      }
      if (taken.length < BATCH || this.#stop.signal.aborted) return made;
    }
  }

  async #attempt(row: EmailRow): Promise<void> {
    const db = this.#options.database.db;
    let outcome: Outcome;
    try {
      const message = await this.#compose(row);
      if (message === null) {
        outcome = { ...settled(row, 'skipped'), attempts: row.attempts };
      } else {
        await this.#transport.sendMail({
          from: this.#options.smtp.from,
          to: message.to,
          subject: message.email.subject,
          text: message.email.text,
          messageId: `<${row.id}@vitro>`,
          headers: {
            'List-Unsubscribe': `<${message.unsubscribe}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        });
        outcome = { ...settled(row, 'sent'), sent_at: iso(this.#now()) };
      }
    } catch (error) {
      outcome = this.#failed(row, error);
    }
    await settleEmail(db, row.id, this.#owner, outcome);
  }

  #failed(row: EmailRow, error: unknown): Outcome {
    const attempts = row.attempts + 1;
    const code = (error as { responseCode?: unknown }).responseCode;
    const permanent = typeof code === 'number' && code >= 500 && code < 600;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (permanent || attempts > RETRY_DELAYS_MS.length) {
      this.#options.log.warn({ email: row.id, err: error }, 'notification email failed');
      return {
        status: 'failed',
        attempts,
        next_attempt_at: null,
        last_error: message,
        sent_at: null,
      };
    }
    return {
      status: 'pending',
      attempts,
      next_attempt_at: iso(this.#now() + RETRY_DELAYS_MS[attempts - 1]!),
      last_error: message,
      sent_at: null,
    };
  }

  /** The email to send, or null when there is none any more (address gone, email off, read). */
  async #compose(row: EmailRow): Promise<{ to: string; email: Email; unsubscribe: string } | null> {
    const db = this.#options.database.db;
    const members = new Map(
      (await listMembers(db, row.workspace_id)).map((member) => [member.id, member]),
    );
    const member = members.get(row.member_id);
    if (member === undefined || member.status !== 'active' || member.email === null) return null;
    if (!(await settingsOfMember(db, row.workspace_id, member.id)).email) return null;
    const links = {
      publicUrl: this.#options.publicUrl,
      unsubscribe: this.#options.links.link(member.id),
    };
    const actor = (id: string | null) => (id === null ? null : (members.get(id)?.name ?? null));
    if (row.kind === 'immediate') {
      const notification = await findByEvent(db, member.id, row.dedupe_key);
      if (notification === undefined || notification.read_at !== null) return null;
      const email = immediateEmail(notification, actor(notification.actor_id), links);
      return { to: member.email, email, unsubscribe: links.unsubscribe };
    }
    const rows = await unreadBetween(
      db,
      row.workspace_id,
      member.id,
      DIGEST_KINDS,
      { from: row.period_start!, to: row.period_end! },
      DIGEST_MAX_ITEMS,
    );
    if (rows.length === 0) return null;
    const email = digestEmail(
      rows.map((n) => ({ row: n, actor: actor(n.actor_id) })),
      links,
    );
    return { to: member.email, email, unsubscribe: links.unsubscribe };
  }

  /**
   * Queues the digest of every person whose day has reached DIGEST_HOUR and who has
   * none for that day yet: what was made for them since their last one. One process
   * at a time (a lease). Answers how many it queued (or found queued).
   */
  async queueDigests(): Promise<number> {
    const { db } = this.#options.database;
    const nowMs = this.#now();
    const lease = leaseOf(db, DIGEST_LEASE, this.#owner, DIGEST_EVERY_MS);
    if (!(await lease.take(nowMs))) return 0;
    let queued = 0;
    try {
      for (const workspace of await listWorkspaces(db)) {
        const rows = await this.#digestsOf(workspace.id, nowMs);
        if (rows.length === 0) continue;
        await inTransaction(db, (trx) => insertEmails(trx, rows));
        queued += rows.length;
      }
    } finally {
      await lease.release();
    }
    return queued;
  }

  async #digestsOf(workspaceId: string, nowMs: number): Promise<EmailRow[]> {
    const { db } = this.#options.database;
    const members = (await listMembers(db, workspaceId)).filter(
      (member: MemberRow) => member.status === 'active' && member.email !== null,
    );
    if (members.length === 0) return [];
    const settingsOf = await settingsByMember(db, workspaceId);
    const last = await lastDigests(db, workspaceId);
    const now = iso(nowMs);
    const rows: EmailRow[] = [];
    for (const member of members) {
      const settings = settingsOf(member.id);
      if (!settings.email || wallClock(nowMs, settings.timeZone)[3]! < DIGEST_HOUR) continue;
      const since = last.get(member.id);
      rows.push(
        pendingEmail(
          workspaceId,
          member.id,
          {
            kind: 'digest',
            dedupe_key: `digest:${localDate(nowMs, settings.timeZone)}`,
            period_start:
              since === undefined || since < iso(nowMs - 2 * DAY_MS) ? iso(nowMs - DAY_MS) : since,
            period_end: now,
          },
          now,
        ),
      );
    }
    return rows;
  }

  /** Whether the SMTP server answers and takes our login (`vitro doctor`). */
  verify(): Promise<true> {
    return this.#transport.verify();
  }

  start(): void {
    if (this.#running !== null) return;
    this.#running = this.#loop();
  }

  async #loop(): Promise<void> {
    const pollMs = this.#options.pollMs ?? POLL_MS;
    while (!this.#stop.signal.aborted) {
      try {
        if (this.#now() - this.#lastDigests >= DIGEST_EVERY_MS) {
          this.#lastDigests = this.#now();
          await this.queueDigests();
        }
        await this.tick();
      } catch (error) {
        if (this.#stop.signal.aborted) break;
        this.#options.log.warn({ err: error }, 'notification email pass failed; trying again');
      }
      await new Promise<void>((resolve) => {
        const signal = this.#stop.signal;
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, pollMs);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Stops: the attempt under way ends, and what this process held is due again for others. */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running;
    this.#running = null;
    await releaseEmails(this.#options.database.db, this.#owner, iso(this.#now())).catch(
      (error: unknown) => this.#options.log.warn({ err: error }, 'could not release emails'),
    );
    this.#transport.close();
  }
}

function settled(row: EmailRow, status: 'sent' | 'skipped'): Outcome {
  return {
    status,
    attempts: row.attempts + 1,
    next_attempt_at: null,
    last_error: null,
    sent_at: null,
  };
}
