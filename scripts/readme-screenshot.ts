// `npm run screenshot`: the README's picture of the console, made from the demo
// lab so that it stays true. A throwaway SQLite database, the demo lab, the
// server on 127.0.0.1, Debian's Chromium signed in as the demo lab's owner
// through a minted sign-in link; the Today screen, every panel loaded, at 1440 x 900 into
// docs/console.png. Run `npm run build:web` first when web/ changed.
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { inTransaction } from '../src/db/transaction.js';
import { createDemoLab } from '../src/modules/demo/index.js';
import { createRecordLookup } from '../src/modules/index.js';
import { mintSignInLinkForMember } from '../src/modules/sessions/index.js';
import { launchChromium } from '../test/support/chromium.js';

const OUT = new URL('../docs/console.png', import.meta.url);

const dir = mkdtempSync(join(tmpdir(), 'vitro-screenshot-'));
const config = loadConfig({ VITRO_DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0' });
const database = openDatabase(config.database);
await migrateToLatest(database.db);
const app = await buildApp(config, { database, logger: false });
const browser = await launchChromium();
try {
  const lab = await inTransaction(database.db, (trx) =>
    createDemoLab(trx, createRecordLookup(), new Date()),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const owner = await database.db
    .selectFrom('members')
    .select('id')
    .where('workspace_id', '=', lab.workspace_id)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  const link = await inTransaction(database.db, (trx) =>
    mintSignInLinkForMember(trx, owner.id, base, new Date().toISOString()),
  );
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(link.url);
  await page.waitForURL(`${base}/`);
  await page.getByRole('heading', { name: 'Latest activity' }).waitFor();
  // Every panel loaded: none still says it is busy.
  // (A function, not a string: the console's Content-Security-Policy forbids eval.)
  await page.waitForFunction(() => {
    const { document } = globalThis as unknown as {
      document: { querySelector(selector: string): unknown };
    };
    return document.querySelector('[aria-busy="true"]') === null;
  });
  await page.screenshot({ path: OUT.pathname });
  console.log(JSON.stringify({ screenshot: OUT.pathname }));
} finally {
  await browser.close();
  await app.close();
  await database.close();
}
