import { randomBytes } from 'node:crypto';
import { SECRET_PREFIXES } from '../../kernel/credentials.js';

/** A session ends after this long unused. */
export const SESSION_IDLE_DAYS = 30;
export const SESSION_IDLE_MS = SESSION_IDLE_DAYS * 24 * 60 * 60 * 1000;
/** A sign-in link works once, within this time. */
export const SIGN_IN_LINK_MINUTES = 15;
export const SIGN_IN_LINK_MS = SIGN_IN_LINK_MINUTES * 60 * 1000;

/** Secrets: 256 random bits, base64url; a prefix tells a link from a session. */
export const LINK_PREFIX = SECRET_PREFIXES.signInLink;
export const SESSION_PREFIX = SECRET_PREFIXES.session;

export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

const isHttps = (publicUrl: string) => publicUrl.startsWith('https:');

/**
 * The session cookie's name. Served over https it carries the `__Host-` prefix:
 * the browser then accepts it only Secure, for the whole origin, from this host,
 * so no sibling host can plant one.
 */
export function sessionCookieName(publicUrl: string): string {
  return isHttps(publicUrl) ? '__Host-vitro_session' : 'vitro_session';
}

/**
 * When a session ends unless signed out first: 30 days unused, and at the latest
 * its lifetime (VITRO_SESSION_LIFETIME) after sign-in, however much it is used.
 */
export function sessionEndsAt(
  session: { created_at: string; last_used_at: string },
  lifetimeMs: number,
): string {
  const idle = Date.parse(session.last_used_at) + SESSION_IDLE_MS;
  const absolute = Date.parse(session.created_at) + lifetimeMs;
  return new Date(Math.min(idle, absolute)).toISOString();
}

/**
 * The Set-Cookie of a session: HttpOnly (never readable from script),
 * SameSite=Strict (never sent with a request another site starts), Secure when
 * PUBLIC_URL is https, for the whole origin, kept until the session ends.
 */
export function sessionCookie(
  publicUrl: string,
  token: string,
  endsAt: string,
  now: string,
): string {
  const seconds = Math.max(0, Math.floor((Date.parse(endsAt) - Date.parse(now)) / 1000));
  const parts = [
    `${sessionCookieName(publicUrl)}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${seconds}`,
  ];
  if (isHttps(publicUrl)) parts.push('Secure');
  return parts.join('; ');
}

/** The Set-Cookie that removes the session cookie (sign-out). */
export function clearedSessionCookie(publicUrl: string): string {
  const parts = [`${sessionCookieName(publicUrl)}=`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  parts.push('Max-Age=0');
  if (isHttps(publicUrl)) parts.push('Secure');
  return parts.join('; ');
}
