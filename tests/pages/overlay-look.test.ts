/**
 * How the OBS overlay looks, measured in real headless Chromium: both layouts × both themes at 1920×1080,
 * 1280×720 and 800×600 (screenshots kept in artifacts/screenshots/overlay-look-*.png), and at 1080p from
 * computed styles: scores ≥ 64 px, names ≥ 40 px, secondary values ≥ 28 px, every other text ≥ 20 px, and
 * WCAG contrast ≥ 4.5:1 of every text against the panel behind it (the panel's colour with the shooter's
 * fill blended over it), for the 14-1 and Rotation scorebugs with a caption, and for a moment card; the longest
 * merged caption lines of simulated matches (each language) shown whole, wrapped, inside the safe area.
 */
import { describe, expect, it } from 'vitest';
import { caption } from '../../web/src/lib/format';
import '../../web/src/lib/i18n-air'; // every language's on-air strings, for the formatter
import { LANGS, type Lang } from '../../web/src/lib/i18n';
import { applyStep, newMatch, view, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { chromiumAvailable } from '../helpers/browser';
import { expectLegible, texts } from '../helpers/legibility';
import { OverlayHarness } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();
const STRAIGHT = { discipline: '14-1', ruleset: 'nba', players: ['Ann Lee', 'Bob Smith'], targets: [100, 100] };
const ROTATION = { discipline: 'rotation', players: ['Ann Lee', 'Bob Smith'], targets: [120, 90] };
/** Bob runs 4 after a safety break, then fouls (no rail): a foul marker, high run and a caption; Ann at the table. */
const STRAIGHT_STEPS: Step[] = [
  { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
  ...[3, 5, 7, 9].map((b) => ({ shot: { call: { ball: b }, pocketed: [b] } })),
  { shot: { call: { ball: 2 }, rail: false } },
];
const ROTATION_STEPS: Step[] = [{ shot: { pocketed: [1, 9] } }, { shot: { pocketed: [2] } }];

/** Width of a text in Latin-character units (a CJK character counts two). */
const widthOf = (s: string) => [...s].reduce((w, ch) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1), 0);

/**
 * The state with the longest merged caption line (`caption(s, lang, true)`) in seeded simulated matches of both
 * disciplines, players with 11-letter names, and the steps that lead there.
 */
function longestCaption(lang: Lang): { setup: object; steps: Step[]; state: MatchState } {
  let best = { width: 0, setup: {}, steps: [] as Step[], state: null as MatchState | null };
  for (const base of [
    { discipline: '14-1', ruleset: 'nba', targets: [60, 60] },
    { discipline: 'rotation', targets: [120, 120] },
  ]) {
    const setup = { ...base, players: ['Maximiliano', 'Bartholomew'] };
    for (let seed = 1; seed <= 12; seed++) {
      const rand = seededRandom(seed);
      let m: Match = newMatch(parseSetup(setup));
      const steps: Step[] = [];
      for (let i = 0; i < 120 && !view(m).winner; i++) {
        const step = plausibleStep(m, rand);
        const r = applyStep(m, step);
        if (!r.ok) continue;
        m = r.match;
        steps.push(step);
        const state = view(m);
        const width = widthOf(caption(state, lang, true));
        if (width > best.width) best = { width, setup, steps: [...steps], state };
      }
    }
  }
  return { setup: best.setup, steps: best.steps, state: best.state! };
}

describe.skipIf(!hasChromium)('OBS overlay legibility and looks', () => {
  const h = new OverlayHarness();
  h.install();

  it('both layouts × both themes: sizes and contrast at 1080p (both disciplines), screenshots at 1920×1080, 1280×720, 800×600', async () => {
    const straight = await h.match(STRAIGHT, STRAIGHT_STEPS);
    const rotation = await h.match(ROTATION, ROTATION_STEPS);
    for (const layout of ['bar', 'corner']) {
      for (const theme of ['dark', 'light']) {
        const q = `?layout=${layout}&theme=${theme}&caption=0&anim=0`;
        for (const [name, m] of [
          ['141', straight],
          ['rotation', rotation],
        ] as const) {
          const page = await h.open(m.id, q);
          try {
            await page.locator('[data-f="caption"]').waitFor();
            expectLegible(await texts(page), `${name} ${layout} ${theme}`);
            if (name === 'rotation') await h.shot(page, `overlay-look-${layout}-${theme}-rotation-1920x1080`);
            else {
              for (const [w, ht] of [
                [1920, 1080],
                [1280, 720],
                [800, 600],
              ] as const) {
                await page.setViewportSize({ width: w, height: ht });
                await h.shot(page, `overlay-look-${layout}-${theme}-${w}x${ht}`);
              }
            }
          } finally {
            await page.close();
          }
        }
      }
    }
  });

  it('a moment card is legible on both themes', async () => {
    const setup = { ...STRAIGHT, targets: [3, 3] };
    const steps: Step[] = [STRAIGHT_STEPS[0]!, ...[3, 5].map((b) => ({ shot: { call: { ball: b }, pocketed: [b] } }))];
    for (const theme of ['dark', 'light']) {
      const m = await h.match(setup, steps);
      const page = await h.open(m.id, `?theme=${theme}&moment=60&anim=0`);
      try {
        await h.record(m, { shot: { call: { ball: 7 }, pocketed: [7] } });
        await page.locator('[data-f="moment"]').waitFor();
        expectLegible(await texts(page, '.moment'), `moment ${theme}`, 6);
        await h.shot(page, `overlay-look-moment-${theme}`);
      } finally {
        await page.close();
      }
    }
  });

  it('the longest merged caption lines show whole: wrapped (bar ≤ 2 lines, corner ≤ 3), one caption, inside the safe area', async () => {
    for (const lang of LANGS) {
      const { setup, steps, state } = longestCaption(lang);
      const text = caption(state, lang, true);
      expect(widthOf(text), text).toBeGreaterThan(70); // long: what a one-line 680 px box would cut
      const m = await h.match(setup, steps);
      for (const [layout, maxLines] of [
        ['bar', 2],
        ['corner', 3],
      ] as const) {
        const page = await h.open(m.id, `?layout=${layout}&lang=${lang}&caption=0&anim=0`);
        try {
          await page.waitForFunction((t) => document.querySelector('[data-f="caption"]')?.textContent?.replace(/\u00a0/g, ' ') === t, text);
          const box = await page.evaluate(() => {
            const el = document.querySelector<HTMLElement>('[data-f="caption"]')!;
            const cs = getComputedStyle(el);
            const r = el.getBoundingClientRect();
            const inner = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
            return {
              clamped: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
              lines: Math.round(inner / parseFloat(cs.lineHeight)),
              left: r.left,
              right: r.right,
              top: r.top,
              bottom: r.bottom,
              count: document.querySelectorAll('.caption').length,
            };
          });
          const ctx = `${lang} ${layout}: ${text}`;
          expect(box.clamped, ctx).toBe(false);
          expect(box.lines, ctx).toBeLessThanOrEqual(maxLines);
          expect(box.count, ctx).toBe(1);
          expect(box.left, ctx).toBeGreaterThanOrEqual(96 - 1); // 90 % action-safe area at 1920×1080
          expect(box.right, ctx).toBeLessThanOrEqual(1824 + 1);
          expect(box.top, ctx).toBeGreaterThanOrEqual(54 - 1);
          expect(box.bottom, ctx).toBeLessThanOrEqual(1026 + 1);
          await h.shot(page, `overlay-look-long-caption-${layout}-${lang}`);
        } finally {
          await page.close();
        }
      }
    }
  });
});
