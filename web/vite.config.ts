import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { here, websocketOnly } from './vite.shared.ts';
import { flagsPlugin } from './flags-plugin';
import { scorerWorkerPlugin } from './scorer-worker-plugin';

/**
 * One Vite app, one HTML entry per page so each page ships only its own code. The server maps routes to these
 * files: `/` → index.html (launcher), `/scorer/:id` → scorer.html, `/dashboard/:id` → dashboard.html,
 * `/watch` and `/watch/:id` → watch.html, `/event` and `/event/:id` → event.html, `/venue/:eventId` and
 * `/tableside/:eventId/:table` → venue.html, `/clock/:id` and `/clock/table/<eventId>/<table>` → clock.html (the
 * shot clock pages; `/draw/:eventId` → draw.html, the public live draw; `/results/:eventId` → results.html; `/director/:eventId` → director.html (the auto-director); the table-following
 * `/watch|dashboard/table/<eventId>/<table>` routes use the page of one match). The two OBS overlays,
 * `/overlay/:id` → overlay.html and `/overlay/table/<eventId>/<table>` → overlay-table.html, are overlay/'s
 * builds (overlay/vite.config.ts, overlay/vite.table.config.ts, into overlay/dist), served at the same root.
 * Flags: flags-plugin.ts (emitted here; the overlays link them too). The scorer console's service worker,
 * `scorer-sw.js`: scorer-worker-plugin.ts (Workbox).
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [websocketOnly(), svelte(), flagsPlugin(), scorerWorkerPlugin()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    // The oldest engine the pages must run in: Chromium 92 (OBS 27's browser source); syntax newer than it is
    // rewritten. APIs are not: tests/protocol/old-engines.test.ts refuses the ones 92 lacks.
    target: 'chrome92',
    rollupOptions: {
      input: {
        index: here('./index.html'),
        scorer: here('./scorer.html'),
        dashboard: here('./dashboard.html'),
        watch: here('./watch.html'),
        event: here('./event.html'),
        venue: here('./venue.html'),
        clock: here('./clock.html'),
        draw: here('./draw.html'),
        results: here('./results.html'),
        director: here('./director.html'),
      },
    },
  },
});
