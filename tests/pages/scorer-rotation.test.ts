/**
 * Rotation console, second QA round, in real headless Chromium at phone size against a real in-process server:
 * - the foul placement asks "the N-ball lies behind the head string" only when the answer can change the
 *   legal choices: not when the lowest ball was pocketed on the foul, not after a third foul;
 * - call shot: "Called: 3 — tap to change", the called ball can be changed to any ball on the table, and a
 *   failed call reads "Called ball not made — no points";
 * - a foul's undo names it ("Undo: Dan — touched ball");
 * - the ball picker draws a ball picked for the shot unlike one already pocketed, in shape (a ✓ badge and a
 *   ring on the full ball; a small hollow ring for the pocketed one), not only in brightness.
 * Screenshots go to artifacts/screenshots (git-ignored).
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { ScorerHarness } from '../helpers/scorer-harness';

const run = chromiumAvailable();
const h = new ScorerHarness('cuecast-scorer-rotation-');
const { create, stepsOf, settled, text, recordAs } = h;
/** Pages share one phone context (closed with the browser). */
const openScorer = async (url: string): Promise<Page> => (await h.openScorer(url, ctx)).page;

let ctx: BrowserContext;

const placements = (page: Page) => page.locator('[data-testid^="place-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));

describe.skipIf(!run)('Rotation console QA (second round) in Chromium', () => {
  h.install();
  beforeAll(async () => {
    ctx = (await h.phone()).ctx;
  });

  test('foul placement: "the 3-ball lies behind the head string" only when it can change the choices', { timeout: 60_000 }, async () => {
    const start = { turn: 'A', onTable: [3, 5, 9, 12] };
    // An ordinary foul: asked, and the answer takes "cue ball behind the head string · 3 as is" away.
    const plain = await create({ discipline: 'rotation', players: ['Cleo', 'Dan'], start });
    await recordAs(plain, { shot: { firstContact: 3, rail: false } });
    let page = await openScorer(plain.urls.scorer);
    await page.getByTestId('choice-panel').waitFor();
    expect(await page.getByTestId('lowest-kitchen').count()).toBe(1);
    expect(await placements(page)).toContain('place-kitchen-as-is');
    await page.getByTestId('lowest-kitchen').check();
    expect(await placements(page)).not.toContain('place-kitchen-as-is');
    await page.close();

    // The 3 went down with the scratch: it is spotted anyway — not asked.
    const lost = await create({ discipline: 'rotation', players: ['Cleo', 'Dan'], start });
    await recordAs(lost, { shot: { firstContact: 3, pocketed: [3], cueBall: 'scratch' } });
    page = await openScorer(lost.urls.scorer);
    await page.getByTestId('choice-panel').waitFor();
    expect(await page.getByTestId('lowest-kitchen').count()).toBe(0);
    expect(await placements(page)).toEqual(['place-kitchen-center-spot', 'place-kitchen-foot-spot']);
    await page.screenshot({ path: join(h.shots, 'scorer-rotation-placement-lowest-lost-390.png'), fullPage: true });
    await page.getByTestId('place-kitchen-foot-spot').click();
    const s = await settled(page, lost.id, 2);
    expect([s.turn, s.awaiting, s.onTable]).toEqual(['B', null, [3, 5, 9, 12]]);
    await page.close();

    // Third foul: ball in hand anywhere — not asked.
    const third = await create({ discipline: 'rotation', players: ['Cleo', 'Dan'], start: { ...start, fouls: [2, 0] } });
    await recordAs(third, { shot: { firstContact: 3, rail: false } });
    page = await openScorer(third.urls.scorer);
    await page.getByTestId('choice-panel').waitFor();
    expect(await page.getByTestId('lowest-kitchen').count()).toBe(0);
    expect(await placements(page)).toEqual(['place-anywhere-as-is', 'place-anywhere-center-spot', 'place-anywhere-foot-spot']);
    await page.close();
  });

  test(
    'call shot: "Called: 3 — tap to change", any ball can be called, a failed call scores nothing; a foul\'s undo names it',
    { timeout: 60_000 },
    async () => {
      const m = await create({ discipline: 'rotation', players: ['Cleo', 'Dan'], options: { callShot: true }, start: { turn: 'A', onTable: [3, 5, 9, 12] } });
      const page = await openScorer(m.urls.scorer);
      await page.getByTestId('rot-shot-panel').waitFor();
      await page.getByTestId('ball-3').click();
      await page.getByTestId('ball-9').click();
      expect(await text(page, 'called')).toBe('Called: 3 — tap to change');
      expect(await text(page, 'record')).toBe('Record +12');
      // Cleo had called the 12 (a combination that failed): change the call.
      await page.getByTestId('called').click();
      await page.getByTestId('called-menu').waitFor();
      await page.getByTestId('call-ball-12').click();
      expect(await text(page, 'called')).toBe('Called: 12 — tap to change');
      expect(await page.getByTestId('called-pocket').count()).toBe(0); // the 12 was not pocketed: nothing to ask
      expect(await text(page, 'record')).toBe('Called ball not made — no points');
      await page.screenshot({ path: join(h.shots, 'scorer-rotation-call-changed-390.png'), fullPage: true });
      await page.getByTestId('record').click();
      let s = await settled(page, m.id, 1);
      expect([s.score, s.turn, s.onTable]).toEqual([[0, 0], 'B', [3, 5, 9, 12]]);
      expect((await stepsOf(m.id))[0]).toMatchObject({ step: { shot: { firstContact: 3, pocketed: [3, 9], call: { ball: 12, made: false } } } });

      // Dan: 3 and 9 down, the 9 called (keyboard C moves the call to the next tapped ball): all score.
      await page.getByTestId('ball-3').click();
      await page.getByTestId('ball-9').click();
      await page.keyboard.press('c');
      expect(await text(page, 'called')).toBe('Called: 9 — tap to change');
      expect(await text(page, 'record')).toBe('Record +12');
      await page.getByTestId('record').click();
      s = await settled(page, m.id, 2);
      expect([s.score, s.turn, s.onTable]).toEqual([[0, 12], 'B', [5, 12]]);

      // A touched-ball foul: the undo button names it, with the player.
      await page.getByTestId('foul').click();
      await page.getByTestId('foul-touched-ball').click();
      s = await settled(page, m.id, 3);
      expect(s.awaiting).toBe('foul-placement');
      expect(await text(page, 'undo')).toBe('↶ Undo: Dan \u2014 touched ball');
      await page.close();
    },
  );

  test('ball picker: a picked ball and a pocketed ball differ in shape, not only in opacity', { timeout: 60_000 }, async () => {
    const m = await create({ discipline: 'rotation', players: ['Cleo', 'Dan'], start: { turn: 'A', onTable: [3, 5, 9, 12] } });
    const page = await openScorer(m.urls.scorer);
    const look = (b: number) =>
      page.getByTestId(`ball-${b}`).evaluate((el) => {
        const cs = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return {
          state: el.getAttribute('data-state'),
          tick: el.querySelector('[data-testid=ball-tick]') !== null,
          background: cs.backgroundColor,
          borderStyle: cs.borderTopStyle,
          width: Math.round(r.width),
          opacity: cs.opacity,
        };
      });
    const onTable = await look(3);
    await page.getByTestId('ball-3').click();
    const picked = await look(3);
    const pocketed = await look(1);
    expect([onTable.state, picked.state, pocketed.state]).toEqual(['on-table', 'picked', 'pocketed']);
    // Picked: the same full coloured ball, as big as before, with a ✓ badge.
    expect(onTable.tick).toBe(false);
    expect(picked.tick).toBe(true);
    expect(picked.opacity).toBe('1');
    expect(picked.background).toBe(onTable.background);
    expect(picked.width).toBe(onTable.width);
    expect(picked.borderStyle).toBe('solid');
    // Pocketed: no badge, no ball colour (a hollow ring), a dotted edge, smaller.
    expect(pocketed.tick).toBe(false);
    expect(pocketed.background).toBe('rgba(0, 0, 0, 0)');
    expect(pocketed.borderStyle).toBe('dotted');
    expect(pocketed.width).toBeLessThan(picked.width * 0.8);
    expect(await page.getByTestId('ball-1').isDisabled()).toBe(true);
    expect(await page.getByTestId('ball-3').getAttribute('aria-pressed')).toBe('true');
    await page.locator('.picker').screenshot({ path: join(h.shots, 'scorer-rotation-picker-picked-vs-pocketed-390.png') });
    // Tapped again: back to a plain ball on the table.
    await page.getByTestId('ball-3').click();
    expect((await look(3)).state).toBe('on-table');
    expect((await look(3)).tick).toBe(false);
    await page.close();
  });
});
