/**
 * The OBS overlay over a match in play, in real headless Chromium against a real server, both disciplines:
 * the shooter's panel changes with the turn (computed styles: the fill, the marker, the run beside the player),
 * a caption names the player and is gone after `?caption=1` (a pending choice stays), moments (match won,
 * Rotation rack won) appear and then the bar returns, the not-found card, and names: a 60-character name fitted
 * and cut at a word, an emoji name with the characters no installed font has dropped (fontconfig says which).
 * Screenshots: artifacts/screenshots/overlay-live-*.png.
 */
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nameForms } from '../../web/src/lib/names';
import { caption } from '../../web/src/lib/format';
import '../../web/src/lib/i18n-air'; // every language's on-air strings, for the formatter
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable } from '../helpers/browser';
import { engineState, field, OverlayHarness, waitForText } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();
const STRAIGHT = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
const ROTATION = { discipline: 'rotation', players: ['Ann', 'Bob'], targets: [200, 200] };
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const pot = (b: number): Step => ({ shot: { call: { ball: b }, pocketed: [b] } });

/** How each panel looks now: the fill over it (::before opacity), the marker's opacity, whether it holds the run. */
function panels(page: Page): Promise<Record<string, { fill: number; marker: number; run: boolean; nameColour: string }>> {
  return page.evaluate(() => {
    const out: Record<string, { fill: number; marker: number; run: boolean; nameColour: string }> = {};
    for (const p of document.querySelectorAll<HTMLElement>('.panel')) {
      out[p.dataset.player!] = {
        fill: Number(getComputedStyle(p, '::before').opacity),
        marker: Number(getComputedStyle(p.querySelector('.marker')!).opacity),
        run: !!p.querySelector('[data-f="run"]'),
        nameColour: getComputedStyle(p.querySelector('.name')!).color,
      };
    }
    return out;
  });
}

/** True when some installed font has the code point (fontconfig, which Chromium on Linux uses too). */
function fontHas(ch: string): boolean {
  try {
    return execFileSync('fc-list', [`:charset=${ch.codePointAt(0)!.toString(16)}`, 'family'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

describe.skipIf(!hasChromium)('OBS overlay over a match in play', () => {
  const h = new OverlayHarness();
  h.install();

  it('the shooter: a filled panel with a marker and the run, the other at rest; it follows the turn (both layouts, both disciplines)', async () => {
    const cases: [typeof STRAIGHT | typeof ROTATION, Step, Step][] = [
      [STRAIGHT, BREAK, { shot: { call: { ball: 3 } } }],
      [ROTATION, { shot: { pocketed: [1] } }, { shot: { firstContact: 2 } }],
    ];
    for (const [setup, first, next] of cases) {
      const m = await h.match(setup, [first]);
      for (const layout of ['bar', 'corner']) {
        for (const theme of ['dark', 'light']) {
          const page = await h.open(m.id, `?layout=${layout}&theme=${theme}&anim=0`);
          try {
            const at = engineState(setup, [first]).turn;
            const rest = at === 'A' ? 'B' : 'A';
            const look = await panels(page);
            expect(look[at]!.fill, `${layout} ${theme}`).toBeGreaterThan(0.2);
            expect(look[at]!.marker).toBe(1);
            // The run box once a run has started (issue 29: none before the break's first pot, nor after a safety break).
            expect(look[at]!.run).toBe(engineState(setup, [first]).run > 0);
            expect(look[rest]).toMatchObject({ fill: 0, marker: 0, run: false });
            expect(look[rest]!.nameColour).not.toBe(look[at]!.nameColour); // at rest: a quieter name too
            if (layout === 'bar' && theme === 'dark') await h.shot(page, `overlay-live-shooter-${setup.discipline}`);
          } finally {
            await page.close();
          }
        }
      }
      // The turn changes: the panels swap (anim=0, so computed styles are final at once).
      const page = await h.open(m.id, '?anim=0');
      try {
        const before = engineState(setup, [first]).turn;
        await h.record(m, next);
        const after = engineState(setup, [first, next]);
        expect(after.turn).not.toBe(before);
        await page.waitForFunction((p) => document.querySelector(`[data-f="turn-${p}"]`)?.getAttribute('data-on') === '1', after.turn);
        const look = await panels(page);
        expect(look[after.turn]!.fill).toBeGreaterThan(0.2);
        expect(look[after.turn]!.marker).toBe(1);
        expect(look[before]).toMatchObject({ fill: 0, marker: 0, run: false });
      } finally {
        await page.close();
      }
    }
  });

  it('a caption names the player and is gone after ?caption=1; a pending choice stays until it is made', async () => {
    // 14-1: Ann's second foul in a row.
    const steps: Step[] = [BREAK, pot(3), { shot: { call: { ball: 7 } } }, { shot: { call: { ball: 1 }, cueBall: 'scratch' } }, { shot: { call: 'safety' } }];
    const m = await h.match(STRAIGHT, steps);
    const page = await h.open(m.id, '?caption=1');
    try {
      expect(await field(page, 'caption')).toBeNull(); // boot: no old caption replayed
      // When the caption comes and goes, timed in the page (a loaded machine only delays what the test sees).
      await page.evaluate(() => {
        const seen: { shown?: number; gone?: number } = {};
        (window as unknown as { captionSeen: typeof seen }).captionSeen = seen;
        new MutationObserver(() => {
          const on = !!document.querySelector('[data-f="caption"]');
          if (on && seen.shown === undefined) seen.shown = performance.now();
          if (!on && seen.shown !== undefined && seen.gone === undefined) seen.gone = performance.now();
        }).observe(document.body, { childList: true, subtree: true });
      });
      const step: Step = { shot: { call: { ball: 2 }, rail: false } };
      await h.record(m, step);
      const want = engineState(STRAIGHT, [...steps, step]);
      const text = caption(want, 'en', true);
      expect(text).toBe('Ann \u2014 no rail \u22121, on two fouls'); // names the player, like a commentator
      await waitForText(page, 'caption', text);
      await page.waitForFunction(() => !document.querySelector('[data-f="caption"]'), null, { timeout: 10_000 });
      const seen = await page.evaluate(() => (window as unknown as { captionSeen: { shown: number; gone: number } }).captionSeen);
      expect(seen.gone - seen.shown).toBeGreaterThanOrEqual(900); // on air for its second (caption=1), not cleared at once
    } finally {
      await page.close();
    }

    // Rotation: a scratch leaves a foul placement pending: the line names who places and stays.
    const rsteps: Step[] = [{ shot: { firstContact: 1, pocketed: [], breakRails: { objectBalls: 4 } } }];
    const r = await h.match(ROTATION, rsteps);
    const rpage = await h.open(r.id, '?caption=1');
    try {
      const scratch: Step = { shot: { firstContact: 1, cueBall: 'scratch' } };
      await h.record(r, scratch);
      const pending = engineState(ROTATION, [...rsteps, scratch]);
      expect(pending.awaiting).toBe('foul-placement');
      // Who fouled, and who places the balls (the pending choice), in one line.
      expect(caption(pending, 'en', true)).toBe('Bob \u2014 scratch \u00b7 Ann places the balls after the foul');
      await waitForText(rpage, 'caption', caption(pending, 'en', true));
      await rpage.waitForTimeout(1500);
      expect(await rpage.getAttribute('[data-f="caption"]', 'data-sticky')).toBe('1'); // still there
      const place: Step = { choice: { cueBall: 'kitchen', lowestBall: 'as-is' } };
      await h.record(r, place);
      const placed = caption(engineState(ROTATION, [...rsteps, scratch, place]), 'en', true);
      expect(placed).toBe('Ann places the balls: 1 as is \u00b7 Ann: ball in hand behind the head string');
      await waitForText(rpage, 'caption', placed);
      await rpage.waitForFunction(() => !document.querySelector('[data-f="caption"]'), null, { timeout: 10_000 });
    } finally {
      await rpage.close();
    }
  });

  it('moments: the match won and a Rotation rack won appear beside the scorebug, which stays; hide=moments turns them off', async () => {
    const setup = { ...STRAIGHT, targets: [3, 3] };
    const m = await h.match(setup, [BREAK, pot(3), pot(5)]);
    const page = await h.open(m.id, '?moment=1&caption=0');
    const off = await h.open(m.id, '?hide=moments');
    try {
      await h.record(m, pot(7)); // Bob's third ball: the match
      await page.locator('[data-f="moment"][data-kind="match-won"]').waitFor();
      expect(await field(page, 'moment-name')).toBe('Bob');
      // Each score by its own name, the winner marked; the high runs by name.
      expect(await field(page, 'moment-value-A')).toBe('0');
      expect(await field(page, 'moment-value-B')).toBe('3');
      expect(await page.getAttribute('[data-f="moment-side-B"]', 'data-winner')).toBe('1');
      expect(await field(page, 'moment-race')).toBe('Race to 3');
      expect(await field(page, 'moment-high-runs')).toBe('Ann 0 \u00b7 Bob 3');
      // The scorebug stays on air with both scores.
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.gfx')!).opacity)).toBe('1');
      expect(await field(page, 'score-B')).toBe('3');
      await h.shot(page, 'overlay-live-match-won');
      await page.locator('[data-f="moment"]').waitFor({ state: 'detached', timeout: 10_000 });
      expect(await field(page, 'winner-B')).toBe('Winner');
      expect(await field(page, 'score-B')).toBe('3');
      await h.shot(page, 'overlay-live-after-match-won');
      // hide=moments: never a moment, the bar stays.
      await waitForText(off, 'score-B', '3');
      expect(await off.locator('[data-f="moment"]').count()).toBe(0);
      expect(await off.evaluate(() => getComputedStyle(document.querySelector('.gfx')!).opacity)).toBe('1');
    } finally {
      await page.close();
      await off.close();
    }

    const balls: Step[] = [{ shot: { pocketed: [1] } }, ...[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((b) => ({ shot: { pocketed: [b] } }))];
    const r = await h.match(ROTATION, balls);
    const rpage = await h.open(r.id, '?moment=1&layout=corner');
    try {
      await h.record(r, { shot: { pocketed: [15] } });
      await rpage.locator('[data-f="moment"][data-kind="rack-won"]').waitFor();
      expect(await field(rpage, 'moment-name')).toBe('Ann');
      expect([await field(rpage, 'moment-value-A'), await field(rpage, 'moment-value-B')]).toEqual(['120', '0']);
      await h.shot(rpage, 'overlay-live-rack-won-corner');
      await rpage.locator('[data-f="moment"]').waitFor({ state: 'detached', timeout: 10_000 });
      await waitForText(rpage, 'rack', '2');
    } finally {
      await rpage.close();
    }
  });

  it('an unknown match shows a "match not found" card with the address to check, never a blank page', async () => {
    const page = await h.browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      await page.goto(`${h.url}/overlay/no-such-match?layout=corner`);
      await page.locator('[data-f="not-found"]').waitFor();
      expect(await page.locator('.nf-title').textContent()).toBe('Match not found: no-such-match');
      expect(await page.locator('.nf-url').textContent()).toBe(`${h.url}/overlay/no-such-match?layout=corner`);
      expect(await page.getAttribute('[data-f="not-found"]', 'data-code')).toBe('not-found');
      const box = await page.locator('[data-f="not-found"]').boundingBox();
      expect(box!.width).toBeGreaterThan(300); // visible, not a blank transparent page
      expect(await page.locator('.gfx').count()).toBe(0);
      await h.shot(page, 'overlay-live-not-found');
      await page.goto(`${h.url}/overlay/no-such-match?lang=ja`);
      await page.locator('[data-f="not-found"]').waitFor();
      expect(await page.locator('.nf-title').textContent()).toBe('試合が見つかりません: no-such-match');
      // No id in the address at all (the bare page).
      await page.goto(`${h.url}/overlay.html`);
      await page.locator('[data-f="not-found"]').waitFor();
      expect(await page.locator('.nf-title').textContent()).toBe('No match in this address');
      // A real match: no card.
      const m = await h.match(STRAIGHT);
      await page.goto(`${h.url}/overlay/${m.id}`);
      await page.locator('[data-f="score-A"]').waitFor();
      expect(await page.locator('[data-f="not-found"]').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('a 60-character name is fitted whole: down to the floor, then the short name, then the family name; emoji shown where a font has them', async () => {
    const long = 'Maximiliano Alessandro Fitzgerald-Montgomery von Hohenberg X'; // 60 characters
    expect(long).toHaveLength(60);
    const emoji = 'Bo 🎱 😀 Smith';
    const m = await h.match({ ...STRAIGHT, players: [long, emoji] });
    for (const layout of ['bar', 'corner']) {
      const page = await h.open(m.id, `?layout=${layout}`);
      try {
        const a = await page.evaluate(() => {
          const el = document.querySelector<HTMLElement>('[data-f="name-A"]')!;
          const box = el.parentElement!;
          return {
            text: el.textContent!,
            form: el.dataset.form,
            size: parseFloat(getComputedStyle(el).fontSize),
            title: el.title,
            fits: el.offsetWidth <= box.clientWidth + 1,
          };
        });
        // Too long at the 28 px floor: an automatic short form, whole (never "…" or a word cut).
        expect(Number(a.form)).toBeGreaterThan(0);
        expect(a.text).not.toContain('\u2026');
        expect(nameForms(long).slice(1)).toContain(a.text);
        expect(a.size).toBeGreaterThanOrEqual(28);
        expect(a.fits).toBe(true);
        expect(a.title).toBe(long);
        const b = (await field(page, 'name-B'))!;
        for (const ch of ['🎱', '😀']) expect(b.includes(ch), `${ch} shown iff a font has it`).toBe(fontHas(ch));
        expect(b).toMatch(/^Bo .*Smith$/);
        expect(b).not.toMatch(/ {2}/);
        await h.shot(page, `overlay-live-names-${layout}`);
      } finally {
        await page.close();
      }
    }
    const s = await h.match({ ...STRAIGHT, players: [long, 'Bob'], shortNames: ['Max', null] });
    const page = await h.open(s.id);
    try {
      expect(await field(page, 'name-A')).toBe('Max'); // the full name does not fit: the short name comes first
      expect(await page.getAttribute('[data-f="name-A"]', 'title')).toBe(long);
      expect(await field(page, 'name-B')).toBe('Bob');
    } finally {
      await page.close();
    }
  });
});
