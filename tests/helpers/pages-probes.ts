/**
 * Probes for the overlay page's budgets, shared by `npm run bench:pages` (figures) and
 * tests/pages/overlay-budget.test.ts (hard checks only where load cannot change the answer):
 * - `overlayScripts(lang, page)`: every JS file a built OBS overlay page loads in `lang` (its HTML's module script
 *   and modulepreloads, plus the chunks of that language's table parts), gzip -9; `overlayPartScript(part, page)`:
 *   the chunk of one of its optional parts (OVERLAY_PARTS), loaded only when used;
 * - `IDLE_PROBE` / `idleWindow()`: timer and animation-frame callbacks scheduled and fired in an idle window;
 * - `firstPaintMs()`: socket connect → first state painted (`cuecast:connect` → `cuecast:first-state-painted`);
 * - `pushPaintMs()`: record ack (REST 201 in the page) → the pushed score painted (next animation frame).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import type { Lang } from '../../web/src/lib/i18n';
import { REPO_ROOT } from './server';

/** The budgets live with the overlay (overlay/budget.ts); the bench and the budget test take them from here too. */
export { DRAW_OVERLAY_JS_CEILING, OVERLAY_JS_BUDGET, TABLE_OVERLAY_JS_CEILING } from '../../overlay/budget';

/** The OBS overlay pages: their HTML entry, and the parts of a language's table each loads as chunks. */
const OVERLAY_PAGES = { overlay: ['air'], 'overlay-table': ['air', 'cards'], 'overlay-draw': [] } as const;
export type OverlayPage = keyof typeof OVERLAY_PAGES;

/**
 * The OBS overlays' optional parts (overlay/src/parts.ts) and the name of each one's chunk,
 * `assets/<page>-<chunk>-<hash>.js`: fetched only when the page uses it (`show=odds`, `milestones=auto`, `debug=1`,
 * a card up on the table overlay), never counted in a page's budget or ceiling.
 */
export const OVERLAY_PARTS = { odds: 'odds-part', milestones: 'Milestone', debug: 'Chip', cards: 'card-part' } as const;
export type OverlayPart = keyof typeof OVERLAY_PARTS;

export interface ScriptSize {
  path: string;
  raw: number;
  gzip: number;
}

/**
 * Every JS file the built OBS overlay page `page` loads in `lang`, raw and gzip -9 bytes: `<page>.html`'s script
 * src and modulepreload hrefs, then the chunk of each part of `lang`'s table the page loads
 * (assets/<page>-<lang>-<part>-<hash>.js: the on-air part, overlay/src/air-strings.ts; the table overlay also
 * the cards part, overlay/src/table/table-strings.ts) in `dist` (default overlay/dist). @throws when the build has no such chunk or more than one.
 */
export function overlayScripts(lang: Lang = 'en', dist = join(REPO_ROOT, 'overlay', 'dist'), page: OverlayPage = 'overlay'): ScriptSize[] {
  const html = readFileSync(join(dist, `${page}.html`), 'utf8');
  const paths = new Set<string>();
  for (const m of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)) paths.add(m[1]!);
  const assets = readdirSync(join(dist, 'assets'));
  for (const part of OVERLAY_PAGES[page]) {
    const table = assets.filter((f) => f.startsWith(`${page}-${lang}-${part}-`) && f.endsWith('.js'));
    if (table.length !== 1) throw new Error(`${page} build: expected one ${lang} ${part} chunk, found ${table.length} (${table.join(', ')})`);
    paths.add(`/assets/${table[0]}`);
  }
  return [...paths].map((p) => {
    const body = readFileSync(join(dist, p));
    return { path: p, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
}

/**
 * The chunk of optional part `part` in the build of `page` in `dist` (default overlay/dist), raw and gzip -9 bytes.
 * @throws when the build has no such chunk or more than one (the one-match overlay has no `cards`).
 */
export function overlayPartScript(part: OverlayPart, page: OverlayPage = 'overlay', dist = join(REPO_ROOT, 'overlay', 'dist')): ScriptSize {
  const prefix = `${page}-${OVERLAY_PARTS[part]}-`;
  const found = readdirSync(join(dist, 'assets')).filter((f) => f.startsWith(prefix) && f.endsWith('.js'));
  if (found.length !== 1) throw new Error(`${page} build: expected one ${part} part chunk (${prefix}…), found ${found.length} (${found.join(', ')})`);
  const path = `/assets/${found[0]}`;
  const body = readFileSync(join(dist, path));
  return { path, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

/** Init script counting timer and frame callbacks (scheduled and fired) from page start; `__idleReset()` zeroes them. */
export const IDLE_PROBE = `
(() => {
  const c = { scheduled: 0, fired: 0, frames: 0 };
  window.__idle = c;
  window.__idleReset = () => { c.scheduled = 0; c.fired = 0; c.frames = 0; };
  const wrap = (name) => {
    const orig = window[name].bind(window);
    window[name] = (fn, ...rest) => {
      c.scheduled++;
      return orig(typeof fn === 'function' ? (...a) => { c.fired++; return fn(...a); } : fn, ...rest);
    };
  };
  wrap('setTimeout');
  wrap('setInterval');
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (fn) => { c.scheduled++; return raf((t) => { c.frames++; fn(t); }); };
})();`;

export interface Idle {
  scheduled: number;
  fired: number;
  frames: number;
  running: number;
  pings: number;
}

/** Count Engine.IO heartbeat pings ('2') the page receives: each re-arms the client's watchdog timer once. */
export function countPings(page: Page): { n: number } {
  const pings = { n: 0 };
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      if (f.payload === '2') pings.n++;
    }),
  );
  return pings;
}

/** Observe `ms` of idle time on a page that has IDLE_PROBE. */
export async function idleWindow(page: Page, pings: { n: number }, ms: number): Promise<Idle> {
  await page.evaluate(() => (window as unknown as { __idleReset(): void }).__idleReset());
  const before = pings.n;
  await page.waitForTimeout(ms);
  const c = await page.evaluate(() => {
    const c = (window as unknown as { __idle: { scheduled: number; fired: number; frames: number } }).__idle;
    const running = document.getAnimations().filter((a) => a.playState === 'running').length;
    return { ...c, running };
  });
  return { ...c, pings: pings.n - before };
}

/** Milliseconds from the socket connecting to the first state painted, on a page that just loaded the overlay. */
export async function firstPaintMs(page: Page): Promise<number> {
  await page.waitForFunction(() => performance.getEntriesByName('cuecast:first-state-painted').length > 0, null, { timeout: 20_000 });
  return page.evaluate(() => {
    const c = performance.getEntriesByName('cuecast:connect')[0]!.startTime;
    const p = performance.getEntriesByName('cuecast:first-state-painted')[0]!.startTime;
    return p - c;
  });
}

/**
 * Record `step` from inside the page (REST, the match's scorer token) and return the milliseconds from the
 * 201 answer to the frame after `[data-f="score-<player>"]` shows `expect`; null when it never did (3 s).
 */
export async function pushPaintMs(
  page: Page,
  m: { id: string; scorerToken: string },
  step: unknown,
  stepId: string,
  player: 'A' | 'B',
  expect: string,
): Promise<number | null> {
  const r = await page.evaluate(
    async ({ id, token, step, stepId, sel, expect }) => {
      const el = document.querySelector(sel)!;
      let paintedAt = 0;
      const seen = new Promise<void>((resolve) => {
        const mo = new MutationObserver(() => {
          if (el.textContent !== expect) return;
          mo.disconnect();
          requestAnimationFrame(() => {
            paintedAt = performance.now();
            resolve();
          });
        });
        mo.observe(el, { childList: true, characterData: true, subtree: true });
      });
      const res = await fetch(`/api/matches/${id}/steps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ stepId, step }),
      });
      const ackAt = performance.now();
      if (res.status !== 201) return { error: `${res.status} ${await res.text()}` };
      await Promise.race([seen, new Promise((r) => setTimeout(r, 3000))]);
      return { delay: paintedAt ? paintedAt - ackAt : null };
    },
    { id: m.id, token: m.scorerToken, step, stepId, sel: `[data-f="score-${player}"]`, expect },
  );
  if ('error' in r) throw new Error(`record: ${r.error}`);
  return r.delay ?? null;
}

/** Median and 95th percentile (nearest rank) of `xs`. */
export function medianP95(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  return { median: s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2, p95: at(0.95) };
}
