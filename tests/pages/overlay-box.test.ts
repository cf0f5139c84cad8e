/**
 * The scorebug's box at 1080p (issue 17, broadcast proportions), in real headless Chromium against a real server,
 * for every layout, size, language and state of tests/helpers/overlay-states.ts (run box, flags, three-digit and negative
 * scores, on 2 fouls, a handicap, Rotation's second row and ball row, each moment, and the shot clock's segment
 * and extension markers in each state):
 * - at `size=m` the bar's main row is ≤ 64 px tall and ≤ 1200 px wide, its second row ≤ 32 px; the corner bug
 *   ≤ 520 × 140 px; `s` and `l` are those times their factor (the bar at most 1.44: the action-safe width);
 * - everything on air stays inside the 90 % action-safe area;
 * - no text is wrapped onto a second line (the caption may take two in the bar, three in the corner bug), none
 *   is clipped or cut (no "…"), an item that leaves a full line leaves whole, and the items a scene needs on
 *   air (`shown`: Rotation's racks won and rack points, 14-1's innings and average) never leave;
 * - a moment sits beside the scorebug, which stays on screen with both scores;
 * - at `size=m`: scores ≥ 40 px, names ≥ 28, values ≥ 22, labels ≥ 16, every text ≥ 4.5:1 — except a name
 *   whose shortest form (one family name longer than its slot holds at 28 px) goes below the floor, whole: the
 *   test prints it;
 * Each scene is measured at `m` in every language and at `s` and `l` in one language each, rotating (`sizesFor`);
 * `BOX_FULL=1` measures every size in every language for every scene.
 * With `SHOTS=1` it also writes the composite screenshots over the pool-table picture
 * (docs/screenshots/pool-table.svg) into docs/screenshots/overlay-v3/ (1080p, and the same downscaled to 720p),
 * en and ja; with `ARTIFACTS=1` into artifacts/screenshots/overlay-v3/ for en only; otherwise none.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, settled } from '../helpers/browser';
import { onTable, saveComposite } from '../helpers/composite';
import { FOR_DOCS, PICTURES, pictureDir } from '../helpers/pictures';
import { MIN, texts } from '../helpers/legibility';
import { OverlayHarness } from '../helpers/overlay-harness';
import { SCENES, type Scene } from '../helpers/overlay-states';

const hasChromium = chromiumAvailable();
const SIZES = { s: 0.8, m: 1, l: 1.5 } as const;
const LAYOUTS = ['bar', 'corner'] as const;
const LANGS = ['en', 'ja', 'zh-TW'] as const;
/**
 * The composites cost three 1080p screenshots each (about three quarters of this file's time on a 2-core
 * machine), so they are made on request only (tests/helpers/pictures.ts): `SHOTS=1` (the docs) or `ARTIFACTS=1`
 * (artifacts/, en).
 */
const DOCS = FOR_DOCS;
const SHOOT = PICTURES;
/** Every size in every language for every scene (9 page loads a scene): with `BOX_FULL=1`, and for the docs' composites. */
const FULL = DOCS || process.env.BOX_FULL === '1';

/**
 * The sizes scene `index` is measured at in language `lang` (an index of LANGS). Every scene is measured at `m` in
 * every language (the design size, where the legibility floors apply); `s` and `l` scale the whole design by
 * one factor (`--z`), so each scene takes them in one language each, rotating over the scenes: every size ×
 * language pair is still measured, on five or six of the sixteen scenes per layout (5 page loads a scene instead of 9).
 */
function sizesFor(index: number, lang: number): (keyof typeof SIZES)[] {
  if (FULL) return ['s', 'm', 'l'];
  return [...(index % LANGS.length === lang ? ['s' as const] : []), 'm', ...((index + 1) % LANGS.length === lang ? ['l' as const] : [])];
}

interface Measured {
  gfx: { x: number; y: number; w: number; h: number };
  main: { w: number; h: number };
  info: { h: number } | null;
  /** Every box on air (scorebug, caption, moment), to hold inside the safe area. */
  boxes: { what: string; x: number; y: number; r: number; b: number }[];
  /** Problems found in the page: a wrapped, clipped or cut text, an item half out of its line. */
  faults: string[];
  scores: string[];
}

/** Measure the scorebug in the page (design px: the viewport is 1920×1080, the stage at scale 1); `shown`: items that must be on air. */
function measure(page: Page, shown: string[]): Promise<Measured> {
  return page.evaluate((shown) => {
    const rect = (el: Element) => el.getBoundingClientRect();
    const gfx = document.querySelector('[data-f="scorebug"]')!;
    const main = gfx.querySelector('.main')!;
    const info = gfx.querySelector('.info');
    const faults: string[] = [];
    const g = rect(gfx);
    const boxes = [...document.querySelectorAll('.main, .info, .caption, .moment')].map((el) => {
      const r = rect(el);
      return { what: el.className, x: r.x, y: r.y, r: r.right, b: r.bottom };
    });
    const lines = (el: Element) => {
      const tops = new Set<number>();
      for (const n of el.childNodes) {
        if (n.nodeType !== 3 || !n.textContent!.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
      }
      return tops.size;
    };
    for (const el of gfx.querySelectorAll<HTMLElement>('*')) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === 3 && n.textContent!.trim())
        .map((n) => n.textContent!)
        .join('');
      if (!own || el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      const caption = el.closest('.caption');
      // A caption's name pieces are checked with the caption (their own rects split at the caption's lines).
      if (el.closest('.nb')) {
        if (lines(el) > 1) faults.push(`name broken over two lines in the caption: "${own}"`);
        continue;
      }
      if (own.includes('\u2026')) faults.push(`cut text: "${own}"`);
      const max = caption ? (gfx.classList.contains('bug') ? 3 : 2) : 1;
      if (lines(el) > max) faults.push(`wrapped text (${lines(el)} lines): "${own}"`);
      if (!caption && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible') faults.push(`clipped text: "${own}"`);
    }
    // Names: the text fits its slot (layout px, before the graphic's scale).
    for (const n of gfx.querySelectorAll<HTMLElement>('[data-f^="name-"], [data-f^="moment-name"]')) {
      if (n.offsetWidth > n.parentElement!.clientWidth + 1)
        faults.push(`name wider than its slot: "${n.textContent}" ${n.offsetWidth} > ${n.parentElement!.clientWidth}`);
    }
    // Items of a line that leaves out what does not fit: each wholly in or wholly out of the line's box.
    for (const line of gfx.querySelectorAll('.sub, .facts')) {
      const box = rect(line);
      for (const item of line.children) {
        const r = rect(item);
        if (r.width === 0) continue;
        const inside = r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
        const outside = r.top >= box.bottom - 1 || r.bottom <= box.top + 1 || r.left >= box.right - 1 || r.right <= box.left + 1;
        if (!inside && !outside) faults.push(`item half out of its line: "${item.textContent}"`);
      }
    }
    // The items the scene needs (by the start of their hook): present, each wholly inside its line (none left out for lack of room).
    for (const f of shown) {
      const found = [...gfx.querySelectorAll(`[data-f^="${f}"]`)].filter((v) => !v.closest('.moment'));
      if (!found.length) faults.push(`${f} not on air`);
      for (const v of found) {
        const item = v.closest('.item');
        const line = item?.parentElement;
        if (!item || !line) {
          faults.push(`${v.getAttribute('data-f')} not an item of a line`);
          continue;
        }
        const r = rect(item);
        const box = rect(line);
        if (!(r.width > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1))
          faults.push(`${v.getAttribute('data-f')} left its line: "${item.textContent}"`);
      }
    }
    const scores = [...gfx.querySelectorAll<HTMLElement>('[data-f^="score-"]')]
      .filter((s) => {
        const r = rect(s);
        return r.width > 0 && r.top >= 0 && r.bottom <= 1080 && getComputedStyle(s).visibility !== 'hidden';
      })
      .map((s) => s.textContent!);
    return {
      gfx: { x: g.x, y: g.y, w: g.width, h: g.height },
      main: { w: rect(main).width, h: rect(main).height },
      info: info ? { h: rect(info).height } : null,
      boxes,
      faults,
      scores,
    };
  }, shown);
}

describe.skipIf(!hasChromium)('the scorebug’s box at 1080p, every layout, size, language and state', () => {
  const h = new OverlayHarness();
  h.install();
  const dir = SHOOT ? pictureDir('overlay-v3') : '';

  /**
   * Show `scene` in `page` with `query`: a scene without a moment reuses its match (`still`); a moment needs a
   * fresh match, whose live step the page sees happen.
   */
  async function show(page: Page, scene: Scene, query: string, still: { id: string } | null): Promise<void> {
    const m = still ?? (await h.match(scene.setup, scene.before));
    await page.goto(`${h.url}/overlay/${m.id}?anim=0&moment=60&caption=0${scene.query}${query}`);
    await page.locator('[data-f="score-A"]').waitFor({ timeout: 30_000 });
    if (scene.clock) await page.locator(`[data-f="shot-clock"][data-status="${scene.clock.status}"]`).waitFor({ timeout: 30_000 });
    if (scene.moment) {
      for (const s of scene.live) await h.record(m as { id: string; scorerToken: string }, s);
      await page.locator(`[data-f="moment"][data-kind="${scene.moment}"]`).waitFor({ timeout: 30_000 });
    }
    await settled(page);
  }

  /** Measure `page` as shown for `ctx`; the problems found, in words. */
  async function check(page: Page, ctx: string, layout: (typeof LAYOUTS)[number], size: keyof typeof SIZES, shown: string[]): Promise<string[]> {
    const problems: string[] = [];
    const m = await measure(page, shown);
    const k = layout === 'bar' ? Math.min(SIZES[size], 1.44) : SIZES[size];
    const tol = 0.5;
    const over = (what: string, v: number, max: number) => v > max + tol && problems.push(`${ctx}: ${what} ${v.toFixed(1)} > ${max.toFixed(1)} px`);
    if (layout === 'bar') {
      over('main row height', m.main.h, 64 * k);
      over('bar width', m.main.w, 1200 * k);
      if (m.info) over('second row height', m.info.h, 32 * k);
    } else {
      over('corner bug width', m.main.w, 520 * k);
      over('corner bug height', m.main.h + (m.info?.h ?? 0), 140 * k);
    }
    for (const b of m.boxes) {
      if (!(b.x >= 96 - tol && b.y >= 54 - tol && b.r <= 1824 + tol && b.b <= 1026 + tol))
        problems.push(`${ctx}: ${b.what} outside the action-safe area ${JSON.stringify(b)}`);
    }
    problems.push(...m.faults.map((f) => `${ctx}: ${f}`));
    if (m.scores.length !== 2) problems.push(`${ctx}: ${m.scores.length} scores on screen`);
    if (size === 'm') {
      // A name whose shortest form (one long family name) is wider than its slot at the floor goes below it, whole.
      const shortest = await page.$$eval('[data-last="1"]', (els) => els.map((e) => e.textContent!));
      // Both names of the scorebug are set at one size (issue 29): when one is below the floor that way, so is the other.
      const below = await page.$$eval('.gfx [data-last="1"][data-f^="name-"]', (els) => els.some((e) => !/\s/.test(e.textContent!)));
      for (const t of await texts(page)) {
        if (t.role === 'name' && t.size < MIN.name && shortest.includes(t.text) && !/\s/.test(t.text)) {
          console.log(`[box] ${ctx}: "${t.text}" (its shortest form) at ${t.size} px, below the ${MIN.name} px floor`);
          continue;
        }
        if (t.role === 'name' && t.size < MIN.name && below) {
          console.log(`[box] ${ctx}: "${t.text}" at ${t.size} px, the size of the other name (its shortest form, below the floor)`);
          continue;
        }
        if (t.size < MIN[t.role]) problems.push(`${ctx}: ${t.role} "${t.text}" at ${t.size} px < ${MIN[t.role]}`);
        if (t.contrast < 4.5) problems.push(`${ctx}: "${t.text}" contrast ${t.contrast.toFixed(2)}`);
      }
    }
    return problems;
  }

  for (const layout of LAYOUTS) {
    for (const [index, scene] of SCENES.entries()) {
      it(`${layout}, ${scene.name}: within the box limits, inside the safe area, nothing wrapped, clipped or cut; both scores on screen`, async () => {
        const still = scene.moment ? null : await h.match(scene.setup, scene.before);
        if (still && scene.clock) {
          await h.clock(still, scene.clock.settings);
          for (const p of scene.clock.presses) await h.press(still, p);
        }
        const problems: string[] = [];
        const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
        try {
          for (const [l, lang] of LANGS.entries()) {
            for (const size of sizesFor(index, l)) {
              await show(page, scene, `&layout=${layout}&size=${size}&lang=${lang}`, still);
              problems.push(...(await check(page, `${layout} size=${size} ${lang} ${scene.name}`, layout, size, scene.shown ?? [])));
              if (SHOOT && lang !== 'zh-TW' && (DOCS || lang === 'en')) {
                await onTable(page);
                await saveComposite(h.browser, await page.screenshot(), join(dir, `${scene.name}-${layout}-${size}-${lang}`), DOCS); // JPEG for the docs (60 PNGs of a photo-like frame would weigh about 70 MB)
              }
            }
          }
        } finally {
          await page.close();
        }
        expect(problems.join('\n')).toBe('');
      });
    }
  }
});
