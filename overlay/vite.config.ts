import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { flagsPlugin } from './flags-plugin';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * One Vite app, one HTML entry per page so each page ships only its own code
 * (the OBS overlay has a 25 KB gzip budget). The server maps routes to these files:
 * `/` → index.html (launcher), `/scorer/:id` → scorer.html, `/overlay/:id` → overlay.html,
 * `/dashboard/:id` → dashboard.html, `/watch` and `/watch/:id` → watch.html, `/event[/:id]` → event.html
 * (the table-following `…/table/<eventId>/<table>` routes use the page of one match). Flags: flags-plugin.ts.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [svelte(), flagsPlugin()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: here('./index.html'),
        scorer: here('./scorer.html'),
        overlay: here('./overlay.html'),
        dashboard: here('./dashboard.html'),
        watch: here('./watch.html'),
        event: here('./event.html'),
      },
    },
  },
});
