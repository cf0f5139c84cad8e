import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { here, websocketOnly } from './vite.shared.ts';

/**
 * The OBS overlay (`/overlay/:id` → overlay.html), built alone after vite.config.ts into the same dist/
 * (not emptied): one bundle with only the Svelte runtime, socket.io-client and code the overlay uses, within
 * its 32 KB gzip budget (`npm run bench:pages`). No module-preload polyfill: the page is one script.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  // No `window.__svelte` version stamp: the overlay is a single-app page.
  plugins: [websocketOnly(), svelte({ compilerOptions: { discloseVersion: false } })],
  build: {
    outDir: here('./dist'),
    emptyOutDir: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: { input: { overlay: here('./overlay.html') } },
  },
});
