/**
 * What both page builds share (vite.config.ts: launcher, scorer, dashboard, watch; vite.overlay.config.ts: the
 * OBS overlay on its own, so its bundle carries only the Svelte runtime it uses — issue 10's 32 KB budget).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** A path inside overlay/. */
export const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const ENGINE_DIR = join(dirname(createRequire(import.meta.url).resolve('engine.io-client/package.json')), 'build', 'esm');
const ONLY_WEBSOCKET = '\0cuecast:engine.io-websocket-only';

/**
 * Every page connects with `transports: ['websocket']` (lib/client.ts), so the browser bundles leave out
 * engine.io-client's HTTP long-polling and WebTransport transports: its transport table
 * (`build/esm/transports/index.js`, imported by its `socket.js`) is replaced by one holding only the WebSocket
 * transport. Saves about 2 KB gzip on every page; nothing else in engine.io-client changes.
 */
export function websocketOnly(): Plugin {
  return {
    name: 'cuecast:engine.io-websocket-only',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './transports/index.js' && importer && join(importer, '..') === ENGINE_DIR) return ONLY_WEBSOCKET;
      return null;
    },
    load(id) {
      if (id !== ONLY_WEBSOCKET) return null;
      const ws = JSON.stringify(join(ENGINE_DIR, 'transports', 'websocket.js'));
      return `import { WS } from ${ws};\nexport const transports = { websocket: WS };\n`;
    },
  };
}
