import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console: built into dist/web/ and served by the API's own process. Every
 * asset is in the build (no CDN), each screen is its own chunk, and nothing is
 * inlined into index.html (its Content-Security-Policy allows no inline script).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: 'public',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
    sourcemap: false,
  },
  server: {
    // `npm run dev:web`: the API at :3000 answers /api and /files.
    proxy: { '/api': 'http://127.0.0.1:3000', '/files': 'http://127.0.0.1:3000' },
  },
});
