/**
 * Vite plugin: the scorer console's service worker, `scorer-sw.js` beside the pages, generated with Workbox
 * (`workbox-build`'s generateSW) once the page build has written its files. It lets a console reloaded while the
 * server is unreachable open from the browser instead of the browser's error page (issue 19, item 7):
 *
 * - **Precache: the console and nothing else.** scorer.html, the JavaScript and CSS the scorer entry loads (its
 *   chunk and every chunk it imports, read from the bundle, not guessed from file names) and the favicons. No
 *   other page's files, and never the OBS overlays' (built apart, after this build: the worker cannot know them).
 * - **Scope `/scorer/`** (the page registers it so, web/src/scorer/offline-worker.ts): the worker controls only
 *   the scorer consoles, so the launcher, dashboard, spectator pages and overlays never go through it.
 * - **The page, network first.** A navigation to `/scorer/<id>` always goes to the server; only when that fails
 *   (no network, server down) does the worker answer the precached scorer.html of its own build, whose assets
 *   it holds too. A new build is therefore picked up as soon as the server answers; the worker script itself is
 *   served `Cache-Control: no-cache` (server/transport/http/static.ts), and a new one takes over at once
 *   (skipWaiting, clientsClaim) and drops the old build's files.
 * - Everything else (the REST API, Socket.IO) is not handled: it goes to the network as without a worker.
 */
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** File name of the worker in dist/ (served at `/scorer-sw.js`). */
export const SCORER_WORKER = 'scorer-sw.js';

/** The files the scorer entry needs, relative to dist/: its HTML, its chunks (static and dynamic imports) and their CSS. */
export function scorerFiles(bundle: OutputBundle, entry = 'scorer'): string[] {
  const chunks = new Map<string, OutputChunk>();
  for (const out of Object.values(bundle)) if (out.type === 'chunk') chunks.set(out.fileName, out);
  const root = [...chunks.values()].find((c) => c.isEntry && c.name === entry);
  if (!root) throw new Error(`scorer worker: no '${entry}' entry chunk in the build`);
  const files = new Set<string>([`${entry}.html`]);
  const visit = (c: OutputChunk) => {
    if (files.has(c.fileName)) return;
    files.add(c.fileName);
    const meta = (c as OutputChunk & { viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> } }).viteMetadata;
    for (const f of meta?.importedCss ?? []) files.add(f);
    for (const f of meta?.importedAssets ?? []) files.add(f);
    for (const f of [...c.imports, ...c.dynamicImports]) {
      const next = chunks.get(f);
      if (next) visit(next);
    }
  };
  visit(root);
  if (!(`${entry}.html` in bundle)) throw new Error(`scorer worker: ${entry}.html is not in the build`);
  return [...files];
}

/** The plugin (for vite.config.ts, the build holding scorer.html). */
export function scorerWorkerPlugin(): Plugin {
  return {
    name: 'cuecast-scorer-worker',
    apply: 'build',
    enforce: 'post',
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) throw new Error('scorer worker: the build has no output directory');
      const files = [...scorerFiles(bundle), 'favicon.ico', 'favicon.svg'];
      // Loaded here, not at the top: scorerFiles stays importable without Workbox's build tools (unit tests).
      const { generateSW } = await import('workbox-build');
      const { warnings } = await generateSW({
        swDest: `${dir}/${SCORER_WORKER}`,
        globDirectory: dir,
        // Exact names: only the console's files (Vite's hashes hold no glob characters).
        globPatterns: files,
        globFollow: false,
        // Hashed file names need no revision; scorer.html and the favicons get one from their content.
        dontCacheBustURLsMatching: /^assets\//,
        mode: 'production',
        sourcemap: false,
        inlineWorkboxRuntime: true,
        skipWaiting: true,
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        // The page first; the precached shell of this build only when the server cannot be reached.
        runtimeCaching: [
          {
            urlPattern: ({ request, url }) => request.mode === 'navigate' && url.pathname.startsWith('/scorer/'),
            handler: 'NetworkOnly',
            options: { precacheFallback: { fallbackURL: '/scorer.html' } },
          },
        ],
      });
      if (warnings.length) throw new Error(`scorer worker: ${warnings.join('; ')}`);
    },
  };
}
