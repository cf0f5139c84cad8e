/**
 * The web pages: the Vite builds of web/ (web/dist: every page but the OBS overlays) and overlay/ (overlay/dist:
 * the two OBS overlays), one HTML entry per page, served together at one root with their hashed /assets.
 * `/` → index.html, `/scorer/:id` and the table's tablet `/scorer/table/:eventId/:table` → scorer.html, `/overlay/:id` → overlay.html,
 * `/dashboard/:id` → dashboard.html, `/watch` and `/watch/:id` → watch.html; the table-following pages
 * `/dashboard|watch/table/:eventId/:table` → the same page as one match, `/overlay/table/:eventId/:table` (and
 * the same cut short) → overlay-table.html (the OBS overlay's table page, built apart from the one-match overlay); `/event` (a new event) and
 * `/event/:eventId` (the organiser's page) → event.html; the venue screens `/venue/:eventId` (hall board) and
 * `/tableside/:eventId/:table` (table screen) → venue.html; the shot clock pages `/clock/:id` and
 * `/clock/table/:eventId/:table` → clock.html; the live draw `/draw/:eventId` → draw.html; an event's results `/results/:eventId` → results.html; the auto-director `/director/:eventId` → director.html. Flags: `/flags/<code>.svg` (copied by the build);
 * `/favicon.ico` and `/favicon.svg` (from web/public) like any other file of the builds (the first folder that
 * holds a file answers).
 * Caching: pages `no-cache` (revalidated on every load), but the two OBS overlays `no-store` (never kept: an
 * overlay must never show an old build); hashed /assets for a year; the scorer console's service worker
 * `/scorer-sw.js` (web/scorer-worker-plugin.ts) `no-cache`, so a new build's worker is found on the next load.
 * A page address without its id (`/scorer`, `/dashboard/`, `/overlay`) opens the page, which says that the
 * id is missing. Any other address answers a short HTML page (404 unknown, 400 a malformed %-escape) with a
 * link to the launcher, never Express's default text or a stack trace.
 * Without a build every page answers 503 with a message saying to run `npm run build`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';

/** Pages that must never be served from a cache (the OBS overlays). */
const NO_STORE = new Set(['overlay.html', 'overlay-table.html', 'overlay-draw.html']);

const PAGES: [string[], string][] = [
  [['/'], 'index.html'],
  // The tablet following a table (`/scorer/table/<eventId>/<table>`), and that address cut short (the page says what is missing).
  [['/scorer', '/scorer/table', '/scorer/table/:eventId', '/scorer/table/:eventId/:table', '/scorer/:id'], 'scorer.html'],
  // The table overlay first: `/overlay/table` is not a match id. A table address cut short (no event, no table)
  // and `/overlay` without an id get their page too, which shows the not-found card with the address to check.
  [['/overlay/table', '/overlay/table/:eventId', '/overlay/table/:eventId/:table'], 'overlay-table.html'],
  // The OBS draw graphics (bracket for breaks, standings lower third), before `/overlay/:id` too.
  [['/overlay/draw', '/overlay/draw/:eventId', '/overlay/standings', '/overlay/standings/:eventId'], 'overlay-draw.html'],
  [['/overlay', '/overlay/:id'], 'overlay.html'],
  [['/dashboard', '/dashboard/:id', '/dashboard/table/:eventId/:table'], 'dashboard.html'],
  [['/watch', '/watch/:id', '/watch/table/:eventId/:table'], 'watch.html'],
  [['/event', '/event/:eventId'], 'event.html'],
  // The venue screens: the hall board and the table screen (one page, by address).
  [['/venue', '/venue/:eventId', '/tableside', '/tableside/:eventId', '/tableside/:eventId/:table'], 'venue.html'],
  // The shot clock pages (a monitor at the table): one match, or a table's current match. A table address cut
  // short gets the page too, which says what to open.
  [['/clock', '/clock/table', '/clock/table/:eventId', '/clock/table/:eventId/:table', '/clock/:id'], 'clock.html'],
  // The public live draw of an event (bracket or groups); without an event the page says what to open.
  [['/draw', '/draw/:eventId'], 'draw.html'],
  // An event's results (live during the event, kept after it); the address without an event says what to open.
  [['/results', '/results/:eventId'], 'results.html'],
  // The auto-director (an OBS dock): one event; without it the page says what to open.
  [['/director', '/director/:eventId'], 'director.html'],
];

/** The scorer console's service worker in the build (web/scorer-worker-plugin.ts). */
const SCORER_WORKER = 'scorer-sw.js';

const NOT_BUILT = 'cuecast: the web pages are not built yet. Run `npm run build` (or `npm start`, which builds them), then reload.\n';

/**
 * Router serving the pages from `dirs`, one build folder or several searched in order (normally web/dist, then
 * overlay/dist). A missing asset is 404 once no folder holds it.
 */
export function staticRouter(dirs: string | readonly string[]): Router {
  const folders = typeof dirs === 'string' ? [dirs] : dirs;
  /** The first folder's `file` that exists (checked per request: a build may land while the server runs). */
  const find = (file: string): string | undefined => folders.map((d) => join(d, file)).find((p) => existsSync(p));
  const r = express.Router();
  folders.forEach((dir, i) =>
    r.use('/assets', express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: i < folders.length - 1 })),
  );
  for (const [paths, file] of PAGES) {
    r.get(paths, (_req, res) => {
      const path = find(file);
      if (!path) {
        res.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
        return;
      }
      res.setHeader('Cache-Control', NO_STORE.has(file) ? 'no-store' : 'no-cache');
      res.sendFile(path);
    });
  }
  // The scorer console's service worker (scope /scorer/, the page asks for it): checked on every load.
  r.get(`/${SCORER_WORKER}`, (_req, res, next) => {
    const worker = find(SCORER_WORKER);
    if (!worker) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/javascript; charset=utf-8').sendFile(worker);
  });
  // Flags change only with the flag package: cached for a day.
  folders.forEach((dir, i) => r.use('/flags', express.static(join(dir, 'flags'), { index: false, maxAge: '1d', fallthrough: i < folders.length - 1 })));
  // Other files Vite copies from web/public (favicon, fonts).
  for (const dir of folders) r.use(express.static(dir, { index: false, maxAge: '1h' }));
  r.use((_req: Request, res: Response) => sendPageError(res, 404));
  r.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    sendPageError(res, err.status && err.status >= 400 && err.status < 500 ? err.status : 500);
  });
  return r;
}

const PAGE_ERRORS: Record<number, [string, string]> = {
  400: ['Bad address', 'This address is not valid (a malformed %-escape?). Check the link.'],
  404: ['Page not found', 'There is no page at this address. Check the link.'],
  500: ['Something went wrong', 'The server could not answer this page. Try again.'],
};

/** A short HTML page for a page address that cannot be served: what went wrong and a link to the launcher (no details). */
function sendPageError(res: Response, status: number): void {
  const [title, text] = PAGE_ERRORS[status] ?? PAGE_ERRORS[status < 500 ? 400 : 500]!;
  res
    .status(status)
    .type('html')
    .setHeader('Cache-Control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>cuecast · ${title}</title><body style="font-family:system-ui,sans-serif;max-width:36em;margin:2em auto;padding:0 1em">` +
        `<h1>${title}</h1><p>${text}</p><p><a href="/">Open the cuecast launcher</a></p></body></html>\n`,
    );
}
