/**
 * What the two OBS overlay builds share (vite.config.ts: the overlay of one match; vite.table.config.ts: the
 * overlay that follows a table). Each page is built on its own, so each bundle carries only what it uses — issue
 * 17's 48 KB gzip budget per language (overlay/budget.ts), which needs no patch of a dependency's internals — and
 * the one-match overlay carries none of the table overlay's code. The live client and the UI pieces the overlays
 * share with the other pages are imported from web/src/lib (one copy); the build output is overlay/dist, served by
 * the server next to web/dist (server/transport/http/static.ts) at the same addresses as every page.
 */
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { UserConfig } from 'vite';
import { websocketOnly } from '../web/vite.shared.ts';

/** A path inside overlay/. */
export const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The OBS overlay pages, in build order: the first build empties overlay/dist, the second adds to it. */
export const OVERLAY_PAGES = ['overlay', 'overlay-table', 'overlay-draw'] as const;
export type OverlayPageName = (typeof OVERLAY_PAGES)[number];

/**
 * The build of one OBS overlay page, `<page>.html` (`overlay`, `overlay-table` or `overlay-draw`) into overlay/dist (emptied by
 * the first page's build only): one bundle with only the Svelte runtime, socket.io-client and the code the page
 * uses, plus the chunks of its language tables (src/air-strings.ts, src/table/table-strings.ts), which import
 * nothing (no module preload), and of its optional parts (src/parts.ts: the odds strip, the milestone pop-up, the
 * debug chip, the table overlay's cards), fetched only when used. Chunks are named `assets/<page>-<name>-<hash>.js`
 * (tests/helpers/pages-probes.ts finds a page's language chunks and parts by that name). No public/ folder: the favicons
 * and flags the pages link are web/dist's, served at the same root.
 */
export function overlayPageConfig(page: OverlayPageName): UserConfig {
  return {
    root: here('.'),
    base: '/',
    publicDir: false,
    // No `window.__svelte` version stamp: an overlay is a single-app page.
    plugins: [websocketOnly(), svelte({ compilerOptions: { discloseVersion: false } })],
    build: {
      outDir: here('./dist'),
      emptyOutDir: page === OVERLAY_PAGES[0],
      // The oldest engine the pages must run in: Chromium 92 (OBS 27's browser source); syntax newer than it is
      // rewritten. APIs are not: tests/protocol/old-engines.test.ts refuses the ones 92 lacks.
      target: 'chrome92',
      modulePreload: false,
      // One style sheet per page, linked by its HTML: the optional parts' styles (src/parts.ts) are in it, so a
      // part's chunk is JavaScript only and shows styled as soon as it has run.
      cssCodeSplit: false,
      rollupOptions: {
        input: { [page]: here(`./${page}.html`) },
        output: { chunkFileNames: `assets/${page}-[name]-[hash].js` },
      },
    },
  };
}
