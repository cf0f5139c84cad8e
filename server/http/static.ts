/**
 * The web pages: the Vite build of overlay/ (one HTML entry per page) and its hashed /assets.
 * `/` → index.html, `/scorer/:id` → scorer.html, `/overlay/:id` → overlay.html,
 * `/dashboard/:id` → dashboard.html, `/watch` and `/watch/:id` → watch.html; the table-following pages
 * `/dashboard|watch/table/:eventId/:table` → the same page as one match, `/overlay/table/:eventId/:table` (and
 * the same cut short) → overlay-table.html (the OBS overlay's table page, built apart from the one-match overlay); `/event` (a new event) and
 * `/event/:eventId` (the organiser's page) → event.html. Flags: `/flags/<code>.svg` (copied by the build);
 * `/favicon.ico` and `/favicon.svg` (from overlay/public) like any other file of the build.
 * Without a build every page answers 503 with a message saying to run `npm run build`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';

const PAGES: [string[], string][] = [
  [['/'], 'index.html'],
  [['/scorer/:id'], 'scorer.html'],
  // The table overlay first: `/overlay/table` is not a match id. A table address cut short (no event, no table)
  // and `/overlay` without an id get their page too, which shows the not-found card with the address to check.
  [['/overlay/table', '/overlay/table/:eventId', '/overlay/table/:eventId/:table'], 'overlay-table.html'],
  [['/overlay', '/overlay/:id'], 'overlay.html'],
  [['/dashboard/:id', '/dashboard/table/:eventId/:table'], 'dashboard.html'],
  [['/watch', '/watch/:id', '/watch/table/:eventId/:table'], 'watch.html'],
  [['/event', '/event/:eventId'], 'event.html'],
];

const NOT_BUILT = 'cuecast: the web pages are not built yet. Run `npm run build` (or `npm start`, which builds them), then reload.\n';

/** Router serving the pages from `dir` (normally overlay/dist). */
export function staticRouter(dir: string): Router {
  const r = express.Router();
  r.use(
    '/assets',
    express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }),
  );
  for (const [paths, file] of PAGES) {
    const path = join(dir, file);
    r.get(paths, (_req, res) => {
      if (!existsSync(path)) {
        res.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
        return;
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path);
    });
  }
  // Flags change only with the flag package: cached for a day.
  r.use('/flags', express.static(join(dir, 'flags'), { index: false, maxAge: '1d', fallthrough: false }));
  // Other files Vite copies from overlay/public (favicon, fonts).
  r.use(express.static(dir, { index: false, maxAge: '1h' }));
  return r;
}
