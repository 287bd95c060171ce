// The console's app icons (web/public/icons/), drawn from its favicon by Debian's
// Chromium: 192 and 512 px, and a 512 px "maskable" one whose mark keeps to the
// middle 80 % that every launcher's mask leaves. Run by hand when the favicon
// changes (`node --import tsx scripts/console-icons.ts`); the PNGs are committed.
import { mkdirSync, readFileSync } from 'node:fs';
import { launchChromium } from '../test/support/chromium.js';

const svg = readFileSync(new URL('../web/public/favicon.svg', import.meta.url), 'utf8');
const out = new URL('../web/public/icons/', import.meta.url);
mkdirSync(out, { recursive: true });

const page = (size: number, maskable: boolean) => {
  const mark = maskable ? Math.round(size * 0.7) : size;
  const inner = svg.replace('<svg ', `<svg width="${mark}" height="${mark}" `);
  return `<!doctype html><html><body style="margin:0;width:${size}px;height:${size}px;display:grid;
place-items:center;background:${maskable ? '#0b6e4f' : 'transparent'}">${inner}</body></html>`;
};

const browser = await launchChromium();
try {
  for (const [name, size, maskable] of [
    ['icon-192.png', 192, false],
    ['icon-512.png', 512, false],
    ['maskable-512.png', 512, true],
  ] as const) {
    const tab = await browser.newPage({ viewport: { width: size, height: size } });
    await tab.setContent(page(size, maskable));
    await tab.screenshot({ path: new URL(name, out).pathname, omitBackground: !maskable });
    await tab.close();
  }
} finally {
  await browser.close();
}
