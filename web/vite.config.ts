import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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
  plugins: [
    // The installable console: its manifest, and a service worker (web/src/sw.ts, with
    // Workbox) that keeps the built shell (every file of the build) so the console
    // opens without the network, and sends the write queue on Background Sync. The
    // API's answers are kept by the console itself (web/src/api/cache.ts), not by the
    // worker; the worker is registered by web/src/offline/install.ts.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      injectRegister: false,
      registerType: 'autoUpdate',
      filename: 'sw.ts',
      manifestFilename: 'manifest.webmanifest',
      // The build's own files are all kept (globPatterns): none twice.
      includeManifestIcons: false,
      manifest: {
        name: 'Vitro',
        short_name: 'Vitro',
        description: 'The lab console of Vitro: plants, explants, tasks and rooms.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#0b6e4f',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png}'],
        rollupFormat: 'iife',
        sourcemap: false,
      },
    }),
  ],
  server: {
    // `npm run dev:web`: the API at :3000 answers /api and /files.
    proxy: { '/api': 'http://127.0.0.1:3000', '/files': 'http://127.0.0.1:3000' },
  },
});
