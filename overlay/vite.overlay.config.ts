import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { here, noPreloadHelper, websocketOnly } from './vite.shared.ts';

/**
 * The OBS overlay (`/overlay/:id` → overlay.html), built alone after vite.config.ts into the same dist/
 * (not emptied): one bundle with only the Svelte runtime, socket.io-client and code the overlay uses, within
 * its 32 KB gzip budget (`npm run bench:pages`): one script plus the chunk of the page's language table
 * (src/overlay/air-strings.ts), which imports nothing, so neither module preload nor Vite's preload helper.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  // No `window.__svelte` version stamp: the overlay is a single-app page.
  plugins: [websocketOnly(), noPreloadHelper(), svelte({ compilerOptions: { discloseVersion: false } })],
  build: {
    outDir: here('./dist'),
    emptyOutDir: false,
    target: 'es2022',
    modulePreload: false,
    rollupOptions: {
      input: { overlay: here('./overlay.html') },
      // The language tables as assets/overlay-<lang>-air-<hash>.js (bench/pages-probes.ts finds them by name).
      output: { chunkFileNames: 'assets/overlay-[name]-[hash].js' },
    },
  },
});
