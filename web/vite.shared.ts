/**
 * What the page builds share (vite.config.ts: launcher, scorer, dashboard, watch, event; vite.overlay.config.ts:
 * the OBS overlay of one match on its own, so its bundle carries only the Svelte runtime it uses — issue 10's
 * 32 KB budget; vite.overlay-table.config.ts: the table overlay on its own, so the first carries none of it).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin, UserConfig } from 'vite';

/** A path inside overlay/. */
export const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const require = createRequire(import.meta.url);
const ENGINE_DIR = join(dirname(require.resolve('engine.io-client/package.json')), 'build', 'esm');
const ONLY_WEBSOCKET = '\0cuecast:engine.io-websocket-only';

/** engine.io-client modules of the transports the pages never use, imported (re-exported) by its index.js. */
const UNUSED_TRANSPORTS = /^\.\/(transports\/(polling|polling-xhr(\.node)?|polling-fetch|webtransport)|contrib\/has-cors)\.js$/;

/**
 * Every page connects with `transports: ['websocket']` (lib/client.ts), so the browser bundles leave out
 * engine.io-client's HTTP long-polling and WebTransport transports: its transport table
 * (`build/esm/transports/index.js`, imported by its `socket.js`) is replaced by one holding only the WebSocket
 * transport, and the transports its index.js still re-exports are marked free of side effects, so the bundle
 * drops them too (polling-xhr.js would otherwise stay for its load-time XMLHttpRequest probe and `pagehide`
 * listener). Saves about 2.7 KB gzip on every page; nothing else in engine.io-client changes.
 */
export function websocketOnly(): Plugin {
  return {
    name: 'cuecast:engine.io-websocket-only',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer || !dirname(importer).startsWith(ENGINE_DIR)) return null;
      if (source === './transports/index.js' && dirname(importer) === ENGINE_DIR) return ONLY_WEBSOCKET;
      const rel = dirname(importer) === ENGINE_DIR ? source : `./${join('transports', source)}`;
      if (!UNUSED_TRANSPORTS.test(rel)) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved && { ...resolved, moduleSideEffects: false };
    },
    load(id) {
      if (id !== ONLY_WEBSOCKET) return null;
      const ws = JSON.stringify(join(ENGINE_DIR, 'transports', 'websocket.js'));
      return `import { WS } from ${ws};\nexport const transports = { websocket: WS };\n`;
    },
  };
}

/** The one namespace import of socket.io-client's manager, and what replaces it (see {@link parserCodecOnly}). */
const PARSER_NAMESPACE = 'import * as parser from "socket.io-parser";';
const PARSER_CODEC = 'import { Encoder, Decoder } from "socket.io-parser";\nconst parser = { Encoder, Decoder };';

/**
 * socket.io-client's Manager takes its packet codec from `opts.parser || parser`, `parser` being socket.io-parser
 * imported as a namespace (`import * as parser`), of which it reads `Encoder` and `Decoder` only. A namespace
 * used as a value makes the bundler build the whole module object, which keeps every export alive
 * (`isPacketValid` and its helpers, the server's validation) plus the bundler's namespace helper. This imports
 * the two classes by name instead, into an object of the same two members: the same official codec, about
 * 0.2 KB gzip less. @throws at build time when the manager has no such import (another socket.io-client): the
 * overlay's budget would silently grow.
 */
export function parserCodecOnly(): Plugin {
  return {
    name: 'cuecast:socket.io-parser-codec-only',
    transform(code, id) {
      if (!/[\\/]socket\.io-client[\\/]build[\\/]esm[\\/]manager\.js$/.test(id)) return null;
      if (!code.includes(PARSER_NAMESPACE)) throw new Error(`parserCodecOnly: socket.io-client's manager.js no longer has '${PARSER_NAMESPACE}'`);
      return { code: code.replace(PARSER_NAMESPACE, PARSER_CODEC), map: null };
    },
  };
}

/**
 * Vite wraps every dynamic `import()` in its preload helper (about 0.6 KB gzip), which fetches the chunk's CSS
 * and JS dependencies ahead. The overlay's only dynamic imports are its language tables (src/overlay/
 * air-strings.ts): chunks without CSS or imports, so the helper has nothing to do; this drops Vite's
 * import-analysis build step for the overlay build only. @throws at config time when that step is not there
 * (another Vite version): the overlay's budget would silently grow.
 */
export function noPreloadHelper(): Plugin {
  const step = 'native:import-analysis-build';
  return {
    name: 'cuecast:no-preload-helper',
    configResolved(config) {
      const plugins = config.plugins as Plugin[];
      const i = plugins.findIndex((p) => p.name === step);
      if (i < 0) throw new Error(`noPreloadHelper: Vite has no '${step}' plugin any more; check the overlay's dynamic imports`);
      plugins.splice(i, 1);
    },
  };
}

/**
 * The build of one OBS overlay page, `<page>.html` (`overlay` or `overlay-table`), run after vite.config.ts into
 * the same dist/ (not emptied): one bundle with only the Svelte runtime, socket.io-client and the code the page
 * uses, plus the chunks of its language tables (src/overlay/air-strings.ts, src/overlay/table/table-strings.ts),
 * which import nothing, so neither module preload nor Vite's preload helper. Chunks are named
 * `assets/<page>-<name>-<hash>.js` (tests/helpers/pages-probes.ts finds a page's language chunks by that name).
 */
export function overlayPageConfig(page: 'overlay' | 'overlay-table'): UserConfig {
  return {
    root: here('.'),
    base: '/',
    // No `window.__svelte` version stamp: an overlay is a single-app page.
    plugins: [websocketOnly(), parserCodecOnly(), noPreloadHelper(), svelte({ compilerOptions: { discloseVersion: false } })],
    build: {
      outDir: here('./dist'),
      emptyOutDir: false,
      target: 'es2022',
      modulePreload: false,
      rollupOptions: {
        input: { [page]: here(`./${page}.html`) },
        output: { chunkFileNames: `assets/${page}-[name]-[hash].js` },
      },
    },
  };
}
