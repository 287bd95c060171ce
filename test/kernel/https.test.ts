import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { sqliteTarget, startTestApp } from '../support/harness.js';

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl in a fresh directory. */
function selfSigned(): { cert: string; key: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vitro-tls-'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
      ...['-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
      ...['-keyout', key, '-out', cert],
    ],
    { stdio: 'ignore' },
  );
  return { cert, key, dir };
}

describe('https on the server’s own certificate (VITRO_TLS_CERT, VITRO_TLS_KEY)', () => {
  it('serves the API and the console over https on loopback, its links https', async () => {
    const { cert, key } = selfSigned();
    const t = await startTestApp(sqliteTarget(), {
      env: { VITRO_TLS_CERT: cert, VITRO_TLS_KEY: key, PORT: '0' },
    });
    try {
      expect(t.config.tls).toEqual({ certFile: cert, keyFile: key });
      expect(t.config.publicUrl).toBe('https://127.0.0.1:0');
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as AddressInfo).port;
      const trusting = new Agent({ connect: { ca: readFileSync(cert) } });
      const root = await fetch(`https://127.0.0.1:${port}/`, { dispatcher: trusting });
      expect(root.status).toBe(200);
      expect(((await root.json()) as { data: { api: string } }).data.api).toBe('/api/v1');
      const page = await fetch(`https://localhost:${port}/plants`, {
        dispatcher: trusting,
        headers: { accept: 'text/html' },
      });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app"></div>');
      const worker = await fetch(`https://127.0.0.1:${port}/sw.js`, { dispatcher: trusting });
      expect(worker.status).toBe(200);
      expect(worker.headers.get('cache-control')).toBe('no-cache, no-store');
      const api = await fetch(`https://127.0.0.1:${port}/api/v1/plants`, { dispatcher: trusting });
      expect(api.status).toBe(401);
      // Not a certificate this client trusts: refused, as by any browser that was not told to.
      await expect(fetch(`https://127.0.0.1:${port}/`)).rejects.toThrow();
      // Plain http on the same port is not served.
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    } finally {
      await t.close();
    }
  });

  it('needs both files, readable, and says which is missing', () => {
    const { cert, key, dir } = selfSigned();
    const base = { VITRO_DATA_DIR: dir };
    expect(loadConfig(base).tls).toBeNull();
    expect(loadConfig(base).publicUrl).toBe('http://127.0.0.1:3000');
    expect(
      loadConfig({ ...base, VITRO_TLS_CERT: cert, VITRO_TLS_KEY: key, PUBLIC_URL: 'https://lab' })
        .publicUrl,
    ).toBe('https://lab');
    for (const [env, message] of [
      [{ VITRO_TLS_CERT: cert }, /^VITRO_TLS_KEY: set both/],
      [{ VITRO_TLS_KEY: key }, /^VITRO_TLS_CERT: set both/],
      [
        { VITRO_TLS_CERT: join(dir, 'nope.pem'), VITRO_TLS_KEY: key },
        /^VITRO_TLS_CERT: cannot read/,
      ],
    ] as const) {
      const attempt = () => loadConfig({ ...base, ...env });
      expect(attempt).toThrowError(ConfigError);
      expect(attempt).toThrowError(message);
    }
  });
});
