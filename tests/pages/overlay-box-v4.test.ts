/**
 * Broadcast v4 (issue 29), the scorebug's box in real headless Chromium against a real server:
 * - framing: `x`/`y` and `pos`/`inset` move the box (both layouts), which stays inside the 1920×1080 frame
 *   whatever is asked (clamped, and debug=1 names the value), caption and moment included;
 * - small when something happens: a caption adds at most 40 px to the default bar and is one line (a pending
 *   choice too, in the bar and the corner bug); the bar with a moment is at most 150 px tall;
 * - the shot clock: its digits at least 36 px of ink at 1080p and 24 px at 720p in the default bar; the last five
 *   seconds marked (a pulse only with motion allowed: not with anim=0 nor prefers-reduced-motion); extension
 *   markers at least 16 px, labelled until the first extension is taken;
 * - Rotation: balls at least 30 px at 1080p, each number ≥ 4.5:1 on its ball and clear of a stripe's white caps;
 *   the default bar's middle shows the lowest ball and the points left; no run box until a run starts;
 * - the table overlay's cards (bar layout): the intro at most 1240 × 150 px, the summary a lower third of at most
 *   20 % of the frame; `summary=full` the full-screen card.
 * With `SHOTS=1` the composites over the pool-table picture go to docs/screenshots/overlay-v4/ (1080p and 720p);
 * with `ARTIFACTS=1` to artifacts/screenshots/overlay-v4/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, settled } from '../helpers/browser';
import { onTable, saveComposite } from '../helpers/composite';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch } from '../helpers/events';
import { texts } from '../helpers/legibility';
import { OverlayHarness } from '../helpers/overlay-harness';
import { clockSettings } from '../helpers/overlay-states';
import { FOR_DOCS, PICTURES, pictureDir } from '../helpers/pictures';
import { api } from '../helpers/server';
import type { Step } from '../../shared/protocol/steps';

const hasChromium = chromiumAvailable();
const NAMES = ['Marcus Holloway-Brennan', 'Kenji Watanabe'];
const STRAIGHT = {
  discipline: '14-1',
  ruleset: 'nba',
  players: NAMES,
  countries: ['GB-ENG', 'JP'],
  targets: [125, 125],
  start: { score: [87, 64], highRun: [23, 41], innings: [11, 11], turn: 'A', ballsOnTable: 15 },
};
const ROTATION = { discipline: 'rotation', players: NAMES, countries: ['GB-ENG', 'JP'], targets: [120, 120] };
const pot = (b: number): Step => ({ shot: { call: { ball: b }, pocketed: [b] } });
const BREAKING_FOUL: Step = { shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: false } } };

/** A box in frame px. */
interface Box {
  x: number;
  y: number;
  r: number;
  b: number;
  w: number;
  h: number;
}

/** The boxes on air: the scorebug (`.gfx`, as scaled), its main row, caption and moment (null when absent). */
function boxes(page: Page): Promise<Record<'gfx' | 'main' | 'caption' | 'moment' | 'slot', Box | null>> {
  return page.evaluate(() => {
    const box = (sel: string) => {
      const el = document.querySelector(sel);
      if (!el || el.getClientRects().length === 0) return null;
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, r: r.right, b: r.bottom, w: r.width, h: r.height };
    };
    return {
      gfx: box('.gfx'),
      main: box('.gfx .main'),
      caption: box('[data-f="caption"]'),
      moment: box('[data-f="moment"]'),
      slot: box('[data-f="sponsor-slot"]'),
    };
  });
}

/** How many lines the caption's text takes (its text runs' distinct tops). */
function captionLines(page: Page): Promise<number> {
  return page.evaluate(() => {
    const cap = document.querySelector('[data-f="caption"]')!;
    const tops = new Set<number>();
    const walk = document.createTreeWalker(cap, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    }
    return tops.size;
  });
}

const inFrame = (b: Box, w = 1920, h = 1080) => b.x >= -0.5 && b.y >= -0.5 && b.r <= w + 0.5 && b.b <= h + 0.5;

describe.skipIf(!hasChromium)('broadcast v4: the scorebug’s framing, sizes when something happens, clock, balls and cards', () => {
  const h = new OverlayHarness();
  h.install();
  const dir = PICTURES ? pictureDir('overlay-v4') : '';

  /** Composite of `page` over the pool table (1080p and 720p) when pictures are asked for. */
  async function picture(page: Page, name: string): Promise<void> {
    if (!PICTURES) return;
    await onTable(page);
    await saveComposite(h.browser, await page.screenshot(), join(dir, name), FOR_DOCS);
  }

  async function open(page: Page, id: string, query: string): Promise<void> {
    await page.goto(`${h.url}/overlay/${id}?anim=0&caption=0&moment=60${query}`);
    await page.locator('[data-f="score-A"]').waitFor({ timeout: 30_000 });
    await settled(page);
  }

  it('framing: x/y and pos/inset move the box in both layouts; it stays inside the frame, caption and moment too; bad values are named with debug=1', async () => {
    const m = await h.match(STRAIGHT, [pot(1), pot(2)]);
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const problems: string[] = [];
    try {
      for (const layout of ['bar', 'corner'] as const) {
        await open(page, m.id, `&layout=${layout}`);
        const base = (await boxes(page)).main!;
        /** [query, expected main row's top-left or null (only inside the frame), expected debug note or null] */
        const cases: [string, { x: number; y: number } | null, string | null][] = [
          ['&x=0&y=0', { x: 0, y: 0 }, null],
          ['&x=300&y=700', { x: 300, y: 700 }, null],
          ['&pos=top', { x: base.x, y: 54 }, null],
          ['&pos=top&inset=10', { x: base.x, y: 10 }, null],
          ['&pos=bottom&inset=0', null, null],
          ['&x=5000&y=-40', null, 'x=5000'],
          ['&x=1900&y=1070&size=l', null, 'x=1900 (→'],
          ['&x=abc', null, 'x=abc'],
        ];
        for (const [q, at, note] of cases) {
          await open(page, m.id, `&layout=${layout}${q}&debug=1`);
          const b = await boxes(page);
          const ctx = `${layout}${q}`;
          if (!inFrame(b.gfx!)) problems.push(`${ctx}: scorebug outside the frame ${JSON.stringify(b.gfx)}`);
          if (at && (Math.abs(b.main!.x - at.x) > 1 || Math.abs(b.main!.y - at.y) > 1))
            problems.push(`${ctx}: main row at ${b.main!.x},${b.main!.y}, expected ${at.x},${at.y}`);
          if (q === '&pos=bottom&inset=0' && Math.abs(b.gfx!.b - 1080) > 1) problems.push(`${ctx}: bottom at ${b.gfx!.b}, expected 1080`);
          const unknown = (await page.locator('[data-f="debug-unknown"]').count()) ? await page.locator('[data-f="debug-unknown"]').textContent() : '';
          if (note && !unknown!.includes(note)) problems.push(`${ctx}: debug chip says "${unknown}", expected "${note}"`);
          if (!note && unknown) problems.push(`${ctx}: debug chip complains "${unknown}"`);
        }
        // The box moved: x=300 is not where the default puts it.
        await open(page, m.id, `&layout=${layout}&x=300&y=700`);
        if (Math.abs((await boxes(page)).main!.x - base.x) < 10) problems.push(`${layout}: x=300 did not move the box`);
      }
      // A caption and a moment stay inside the frame at the frame's edges: the caption goes below a scorebug at the top.
      const live = await h.match(STRAIGHT, [pot(1)]);
      let ball = 1;
      for (const q of [
        '&layout=bar&pos=top&inset=0',
        '&layout=bar&pos=bottom&inset=0',
        '&layout=corner&corner=tr&pos=top&inset=0',
        '&layout=corner&x=1920&y=1080',
      ]) {
        await page.goto(`${h.url}/overlay/${live.id}?anim=0&caption=0&captions=all${q}`);
        await page.locator('[data-f="score-A"]').waitFor({ timeout: 30_000 });
        await h.record(live, pot(++ball));
        await page.locator('[data-f="caption"]').waitFor({ timeout: 30_000 });
        await settled(page);
        const b = await boxes(page);
        if (!inFrame(b.gfx!) || !inFrame(b.caption!)) problems.push(`${q}: caption or scorebug outside the frame ${JSON.stringify(b)}`);
        if (q.includes('top') && b.caption!.y < b.main!.y) problems.push(`${q}: caption above a scorebug at the top`);
        if (q === '&layout=bar&pos=top&inset=0') await picture(page, 'framing-bar-top-caption');
        if (q === '&layout=corner&x=1920&y=1080') await picture(page, 'framing-corner-clamped-caption');
      }
      await open(page, m.id, '&layout=bar&x=360&y=40');
      await picture(page, 'framing-bar-x360-y40');
    } finally {
      await page.close();
    }
    expect(problems.join('\n')).toBe('');
  });

  it('a caption adds at most 40 px to the default bar and is one line, a pending choice too (bar and corner); the bar with a moment is at most 150 px tall', async () => {
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const problems: string[] = [];
    try {
      for (const lang of ['en', 'ja', 'zh-TW']) {
        // A notable step (a foul) on the default bar: the height it adds.
        const m = await h.match(STRAIGHT, [pot(1)]);
        await open(page, m.id, `&lang=${lang}`);
        const before = (await boxes(page)).gfx!.h;
        await h.record(m, { shot: { call: { ball: 5 }, cueBall: 'scratch' } });
        await page.locator('[data-f="caption"]').waitFor({ timeout: 30_000 });
        await settled(page);
        const added = (await boxes(page)).gfx!.h - before;
        if (added > 40.5) problems.push(`${lang}: a caption adds ${added.toFixed(1)} px to the bar (> 40)`);
        if ((await captionLines(page)) !== 1) problems.push(`${lang}: the caption takes ${await captionLines(page)} lines`);
        if (lang === 'en') await picture(page, 'caption-foul-bar');
        // A pending choice (breaking foul): one line in the bar and in the corner bug, the choice on air.
        const b = await h.match({ ...STRAIGHT, start: undefined, players: ['Maximilian Alexander von Hohenberg-Castellano', 'Kenji Watanabe'] });
        for (const layout of ['bar', 'corner']) {
          await open(page, b.id, `&lang=${lang}&layout=${layout}`);
          if (layout === 'bar') await h.record(b, BREAKING_FOUL);
          await page.locator('[data-f="caption"][data-sticky="1"]').waitFor({ timeout: 30_000 });
          await settled(page);
          const lines = await captionLines(page);
          if (lines !== 1) problems.push(`${lang} ${layout}: the pending-choice caption takes ${lines} lines`);
          const cap = (await boxes(page)).caption!;
          if (cap.h > 34.5) problems.push(`${lang} ${layout}: the pending-choice caption is ${cap.h} px tall`);
          if (!inFrame(cap)) problems.push(`${lang} ${layout}: caption outside the frame`);
          // The choice itself (what comes next) is what stays whole when the line is too long.
          const next = await page.locator('[data-f="caption"] .cp-1').evaluate((e) => e.scrollWidth <= e.clientWidth + 1);
          if (!next) problems.push(`${lang} ${layout}: the pending choice is cut`);
          if (lang === 'en') await picture(page, `caption-choice-${layout}`);
        }
      }
      // Every moment in the bar: at most 150 px with the bar, one row, both scores still on air.
      const moments: [string, unknown, Step[], Step[]][] = [
        [
          'match-won',
          { ...STRAIGHT, targets: [50, 50], start: { score: [20, 47], highRun: [20, 32], turn: 'B', ballsOnTable: 10 } },
          [pot(1), pot(2)],
          [pot(3)],
        ],
        [
          'rerack',
          { ...STRAIGHT, targets: [150, 150], start: { score: [48, 71], highRun: [9, 22], turn: 'A', ballsOnTable: 15 } },
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map(pot),
          [pot(14)],
        ],
        [
          'rack-won',
          { ...ROTATION, start: { turn: 'B', onTable: [10, 11, 12, 13, 14, 15] } },
          [10, 11, 12].map((n) => ({ shot: { firstContact: n, pocketed: [n] } })),
          [{ shot: { firstContact: 13, pocketed: [13, 14, 15] } }],
        ],
      ];
      for (const [kind, setup, before, live] of moments) {
        for (const lang of ['en', 'zh-TW']) {
          const m = await h.match(setup, before);
          await open(page, m.id, `&lang=${lang}`);
          for (const s of live) await h.record(m, s);
          await page.locator(`[data-f="moment"][data-kind="${kind}"]`).waitFor({ timeout: 30_000 });
          await settled(page);
          const b = await boxes(page);
          if (b.gfx!.h > 150.5) problems.push(`${lang} ${kind}: the bar with its moment is ${b.gfx!.h.toFixed(1)} px tall (> 150)`);
          if (!inFrame(b.gfx!)) problems.push(`${lang} ${kind}: outside the frame`);
          const cut = await page.evaluate(() =>
            [...document.querySelectorAll<HTMLElement>('[data-f="moment"] [data-f^="moment-name"], [data-f="moment"] .m-val')]
              .filter((e) => e.getBoundingClientRect().right > e.closest('.m-side')!.getBoundingClientRect().right + 1)
              .map((e) => e.textContent),
          );
          if (cut.length) problems.push(`${lang} ${kind}: cut in the moment: ${cut.join(', ')}`);
          if (lang === 'en') await picture(page, `moment-${kind}-bar`);
        }
      }
    } finally {
      await page.close();
    }
    expect(problems.join('\n')).toBe('');
  });

  it('the bar’s shot clock: digits ≥ 36 px of ink at 1080p and ≥ 24 px at 720p; the last five seconds marked, pulsing only with motion allowed; extension markers ≥ 16 px, labelled until one is taken', async () => {
    const m = await h.match(STRAIGHT, [pot(1)]);
    await h.clock(m, clockSettings(45, 15, 10, 2));
    await h.press(m, 'start');
    const problems: string[] = [];
    /** The digits' ink height (canvas metrics of the shown text in its computed font) times the stage's scale. */
    const digits = (page: Page) =>
      page.locator('[data-f="shot-clock"] .secs').evaluate((el: HTMLElement) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        const cs = getComputedStyle(el);
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const t = ctx.measureText(el.textContent!);
        const scale = el.getBoundingClientRect().height / el.offsetHeight;
        return (t.actualBoundingBoxAscent + t.actualBoundingBoxDescent) * scale;
      });
    for (const [w, ht, min] of [
      [1920, 1080, 36],
      [1280, 720, 24],
    ] as const) {
      const page = await h.browser.newPage({ viewport: { width: w, height: ht } });
      try {
        await open(page, m.id, '');
        await page.locator('[data-f="shot-clock"][data-status="running"]').waitFor({ timeout: 30_000 });
        const ink = await digits(page);
        if (ink < min) problems.push(`${w}×${ht}: the clock's digits are ${ink.toFixed(1)} px (< ${min})`);
        // The markers: each ≥ 16 px (a diamond corner to corner), at the design size.
        const markers = await page.$$eval('[data-f^="ext-"] i', (els) =>
          els.map((e) => e.getBoundingClientRect().width / (document.querySelector('.stage')!.getBoundingClientRect().width / 1920)),
        );
        if (markers.length !== 4) problems.push(`${w}×${ht}: ${markers.length} extension markers (expected 2 each)`);
        for (const s of markers) if (s < 16) problems.push(`${w}×${ht}: an extension marker is ${s.toFixed(1)} px (< 16)`);
        if (w === 1920) {
          const labels = await page.$$eval('[data-f^="ext-label-"]', (els) => els.map((e) => e.textContent));
          if (labels.join() !== 'Ext,Ext') problems.push(`the markers' first showing is not labelled: ${labels.join()}`);
          await picture(page, 'clock-bar-running-ext-label');
        }
      } finally {
        await page.close();
      }
    }
    // An extension taken: the label goes (seen on this page), the marker shows one used.
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      await open(page, m.id, '');
      await page.locator('[data-f="ext-label-A"]').waitFor({ timeout: 30_000 });
      await h.press(m, 'extension');
      await page.locator('[data-f="ext-A"][data-left="1"]').waitFor({ timeout: 30_000 });
      if (await page.locator('[data-f^="ext-label-"]').count()) problems.push('the markers are still labelled after an extension was taken');
    } finally {
      await page.close();
    }
    // The last five seconds: marked (data-final, the ring), the pulse only with motion allowed.
    const f = await h.match(STRAIGHT, [pot(1)]);
    await h.clock(f, clockSettings(5, 4, 3, 1));
    for (const [query, motion, pulse] of [
      ['', 'no-preference', 'final-pulse'],
      ['', 'reduce', 'none'],
    ] as const) {
      for (const anim of ['&anim=1', '']) {
        const p = await h.browser.newPage({ viewport: { width: 1920, height: 1080 }, reducedMotion: motion });
        try {
          await p.goto(`${h.url}/overlay/${f.id}?caption=0${anim === '' ? '&anim=0' : ''}${query}`);
          await p.locator('[data-f="score-A"]').waitFor({ timeout: 30_000 });
          await h.press(f, 'start');
          await p.locator('[data-f="shot-clock"][data-final="1"]').waitFor({ timeout: 4_000 });
          const name = await p.locator('[data-f="shot-clock"] .secs').evaluate((e) => getComputedStyle(e).animationName);
          const expected = anim === '' ? 'none' : pulse;
          if (name !== expected) problems.push(`final seconds, motion ${motion}${anim || ' anim=0'}: animation ${name}, expected ${expected}`);
          if (motion === 'reduce' && anim === '') await picture(p, 'clock-bar-final-seconds');
          await h.press(f, 'reset');
        } finally {
          await p.close();
        }
      }
    }
    expect(problems.join('\n')).toBe('');
  });

  it('Rotation: balls ≥ 30 px, each number ≥ 4.5:1 on its ball and clear of the stripes; the bar’s middle shows the lowest ball and the points left; no run box until a run starts', async () => {
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const problems: string[] = [];
    try {
      // A new match: no run box before the break.
      const m = await h.match(ROTATION);
      await open(page, m.id, '');
      if (await page.locator('[data-f="run"]').count()) problems.push('a run box before the break');
      // The break pots 1 and 9, a run of 10; then 2; then a miss: no run box after it.
      await h.record(m, { shot: { pocketed: [1, 9] } });
      await page.locator('[data-f="run"]').waitFor({ timeout: 30_000 });
      await h.record(m, { shot: { pocketed: [2] } });
      await open(page, m.id, '');
      for (const f of ['lowest', 'points-left']) {
        const ok = await page.evaluate((f) => {
          const v = document.querySelector(`[data-f="${f}"]`);
          const line = document.querySelector('.facts');
          if (!v || !line) return false;
          const r = v.getBoundingClientRect();
          const b = line.getBoundingClientRect();
          return r.width > 0 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.left >= b.left - 1 && r.right <= b.right + 1;
        }, f);
        if (!ok) problems.push(`the bar's middle does not show ${f}`);
      }
      expect(await page.locator('[data-f="lowest"]').getAttribute('data-ball')).toBe('3');
      await picture(page, 'rotation-bar-default');
      await h.record(m, { shot: { firstContact: 3, pocketed: [] } } as Step);
      await open(page, m.id, '');
      if (await page.locator('[data-f="run"]').count()) problems.push('a run box after a miss');
      // Every ball of a full rack with show=balls, in both layouts: size, contrast, stripes clear of the number.
      const full = await h.match(ROTATION);
      for (const layout of ['bar', 'corner']) {
        await open(page, full.id, `&show=balls&layout=${layout}`);
        const balls = await page.$$eval('.ball', (els) =>
          els.map((e) => {
            const r = e.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(e);
            const t = range.getBoundingClientRect();
            const cap = e.classList.contains('stripe') ? parseFloat(getComputedStyle(e).getPropertyValue('--cap')) : 0;
            return { n: e.textContent!, w: r.width, h: r.height, clear: t.top >= r.top + cap - 0.5 && t.bottom <= r.bottom - cap + 0.5 };
          }),
        );
        if (balls.length !== 15) problems.push(`${layout}: ${balls.length} balls`);
        for (const b of balls) {
          if (b.w < 29.5 || b.h < 29.5) problems.push(`${layout}: ball ${b.n} is ${b.w}×${b.h} px (< 30)`);
          if (!b.clear) problems.push(`${layout}: ball ${b.n}'s number runs into its stripe`);
        }
        for (const t of await texts(page)) {
          if (/^\d+$/.test(t.text) && t.contrast < 4.5) problems.push(`${layout}: "${t.text}" at ${t.contrast.toFixed(2)}:1`);
        }
        await picture(page, `rotation-balls-${layout}`);
      }
    } finally {
      await page.close();
    }
    expect(problems.join('\n')).toBe('');
  });

  it('the table overlay’s cards in the bar layout: the intro at most 1240 × 150 px, the summary a lower third of at most 20 % of the frame; summary=full the large card', async () => {
    const ev = await createEvent(h.url, EVENT);
    const m = await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
    const press = (action: string) => api(h.url, `/api/events/${ev.id}/tables/table-1/cards/${action}`, { method: 'POST', token: ev.organiserToken });
    for (const step of stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] })) await recordStep(h.url, m, step);
    const problems: string[] = [];
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      for (const [query, kind] of [
        ['', 'intro'],
        ['', 'summary'],
        ['&summary=full', 'summary'],
      ] as const) {
        await page.goto(`${h.url}/overlay/table/${ev.id}/table-1?anim=0${query}`);
        await page.locator('[data-f="score-A"]').waitFor({ timeout: 30_000 });
        expect((await press(kind)).status).toBe(200);
        await page.locator(`[data-f="card"][data-kind="${kind}"][data-up="1"]`).waitFor({ timeout: 30_000 });
        await settled(page);
        const r = await page.locator('[data-f="card"][data-up="1"]').evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
        const ctx = `${kind}${query}`;
        if (!inFrame({ x: r.x, y: r.y, r: r.right, b: r.bottom, w: r.width, h: r.height })) problems.push(`${ctx}: outside the frame`);
        if (kind === 'intro' && (r.width > 1240.5 || r.height > 150.5)) problems.push(`intro card ${r.width}×${r.height} (> 1240×150)`);
        if (kind === 'summary' && !query) {
          const share = (r.width * r.height) / (1920 * 1080);
          if (share > 0.2) problems.push(`summary card ${r.width}×${r.height}: ${(share * 100).toFixed(1)} % of the frame (> 20 %)`);
          if (r.y < 720) problems.push(`summary card's top at ${r.y}: not a lower third`);
        }
        if (query && r.height < 300) problems.push(`summary=full: the card is ${r.height} px tall (the large card expected)`);
        await picture(page, `card-${kind}${query ? '-full' : ''}-bar`);
        expect((await press('hide')).status).toBe(200);
      }
    } finally {
      await page.close();
    }
    expect(problems.join('\n')).toBe('');
  });
});
