/**
 * What the page builds share: web/vite.config.ts (launcher, scorer, dashboard, watch, event, venue, clock) and the
 * OBS overlays' builds in overlay/ (overlay/vite.shared.ts) both leave out engine.io-client's unused transports.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** A path inside web/. */
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
