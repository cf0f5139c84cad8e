/**
 * The scorer console never offers a combination the rules refuse (D-30), in real headless Chromium at phone
 * size against a real in-process server — the three known ones, by tap and by key:
 * - "No rail" after naming / tapping a dropped ball (14-1 and Rotation): disabled with the reason; its key
 *   does nothing; "Clear the balls" makes it available and it records `rail: false` alone;
 * - "No contact" with picked balls, and Rotation's first hit "none" with a picked ball: the same;
 * - the Rotation break's foul menu has no "No rail" (the other fouls keep their number keys).
 * Screenshots go to artifacts/screenshots (git-ignored).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { ScorerHarness } from '../helpers/scorer-harness';

const run = chromiumAvailable();
const h = new ScorerHarness('cuecast-scorer-conflicts-');
const { create, stepsOf, settled, text, openScorer } = h;

const disabled = (page: Page, testId: string) => page.getByTestId(testId).isDisabled();
/** Press keys and then check nothing went to the server (the version did not move). */
async function pressNothingSent(page: Page, id: string, keys: string[]): Promise<void> {
  for (const k of keys) await page.keyboard.press(k);
  await page.locator('[data-testid=status][data-queued="0"]').waitFor();
  expect((await h.stateOf(id)).version).toBe(0);
}

describe.skipIf(!run)('scorer console: no control the rules refuse (Chromium)', () => {
  h.install();

  test('14-1: a named dropped ball turns off "No rail" and "No contact" (tap and key); cleared, "No rail" records alone', { timeout: 60_000 }, async () => {
    const m = await create({ discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 12, score: [20, 18] } });
    const { ctx, page } = await openScorer(m.urls.scorer);
    await page.getByTestId('shot-panel').waitFor();
    await page.getByTestId('numbers-toggle').click();
    await page.getByTestId('ball-7').click();
    await page.getByTestId('foul').click();
    expect([
      await disabled(page, 'foul-no-rail'),
      await disabled(page, 'foul-no-contact'),
      await disabled(page, 'foul-scratch'),
      await disabled(page, 'foul-touched-ball'),
    ]).toEqual([true, true, false, false]);
    expect(await page.getByTestId('foul-no-rail').getAttribute('data-conflict')).toBe('rail');
    expect(await page.getByTestId('conflict').getAttribute('data-conflicts')).toBe('rail no-hit');
    expect(await text(page, 'conflict')).toContain('“No rail” is off: a ball marked pocketed meets the rail rule.');
    await page.screenshot({ path: join(h.shots, 'scorer-conflict-14-1-no-rail-390.png'), fullPage: true });

    // The number keys of the two fouls do nothing either (2: no rail, 3: no contact).
    await pressNothingSent(page, m.id, ['2', '3']);
    expect(await page.getByTestId('foul-menu').isVisible()).toBe(true);

    await page.getByTestId('clear-balls').click();
    expect(await page.getByTestId('conflict').count()).toBe(0);
    expect(await disabled(page, 'foul-no-rail')).toBe(false);
    await page.getByTestId('foul-no-rail').click();
    await settled(page, m.id, 1);
    expect((await stepsOf(m.id)).map((e) => e.step)).toEqual([{ shot: { call: { made: false }, rail: false } }]);
    await ctx.close();
  });

  test(
    'Rotation: a tapped ball turns off "No rail" / "No contact"; first hit "none" with it turns off the one-tap foul; cleared, it records',
    { timeout: 60_000 },
    async () => {
      const m = await create({ discipline: 'rotation', players: ['Cleo', 'Dan'], start: { turn: 'A', onTable: [3, 5, 9, 12] } });
      const { ctx, page } = await openScorer(m.urls.scorer);
      await page.getByTestId('rot-shot-panel').waitFor();
      await page.getByTestId('ball-5').click();
      await page.getByTestId('foul').click();
      expect([
        await disabled(page, 'foul-no-rail'),
        await disabled(page, 'foul-no-contact'),
        await disabled(page, 'foul-touched-ball'),
        await disabled(page, 'foul-scratch'),
      ]).toEqual([true, true, false, false]);
      await pressNothingSent(page, m.id, ['4', '3']); // 4: no rail, 3: no contact (the foul menu is open)

      // First hit "none" with the 5 tapped: the one-tap "Foul: no contact" is off too, and so is Enter.
      await page.getByTestId('foul').click(); // close the menu
      await page.getByTestId('first-contact').selectOption('none');
      const implied = page.locator('[data-testid=foul][data-implied=no-contact]');
      expect(await implied.isDisabled()).toBe(true);
      expect(await implied.getAttribute('data-conflict')).toBe('no-hit');
      expect(await text(page, 'conflict')).toContain('With no ball hit, no ball can drop');
      await page.screenshot({ path: join(h.shots, 'scorer-conflict-rotation-no-contact-390.png'), fullPage: true });
      await page.locator('body').click({ position: { x: 5, y: 5 } }); // focus off the select, so Enter reaches the console
      await pressNothingSent(page, m.id, ['Enter']);
      // A ball moved by the hand or cue with no ball hit is a touched ball: that one stays available.
      await page.getByTestId('foul-other').click();
      expect(await disabled(page, 'foul-touched-ball')).toBe(false);

      await page.getByTestId('clear-balls').click();
      expect(await implied.isDisabled()).toBe(false);
      // With no ball hit, no ball can leave the table either: "Ball off table" stays off (no balls left to clear).
      expect([await disabled(page, 'foul-off-table'), await disabled(page, 'foul-no-rail'), await page.getByTestId('clear-balls').count()]).toEqual([
        true,
        false,
        0,
      ]);
      await implied.click();
      await settled(page, m.id, 1);
      expect((await stepsOf(m.id)).map((e) => e.step)).toEqual([{ shot: { firstContact: null } }]);
      await ctx.close();
    },
  );

  test('Rotation break: the foul menu has no "No rail" and its key does nothing; the others keep their numbers', { timeout: 60_000 }, async () => {
    const m = await create({ discipline: 'rotation', players: ['Cleo', 'Dan'] });
    const { ctx, page } = await openScorer(m.urls.scorer);
    await page.getByTestId('rot-break-panel').waitFor();
    await page.getByTestId('foul').click();
    const ids = await page
      .locator('[data-testid=foul-menu] button')
      .evaluateAll((els) => els.map((e) => `${e.querySelector('kbd')?.textContent} ${e.getAttribute('data-testid')}`));
    expect(ids).toEqual([
      '1 foul-scratch',
      '2 foul-wrong-ball',
      '3 foul-no-contact',
      '5 foul-off-table',
      '6 foul-touched-ball',
      '7 foul-double-hit',
      '8 foul-feet-off-floor',
    ]);
    await page.screenshot({ path: join(h.shots, 'scorer-conflict-rotation-break-fouls-390.png'), fullPage: true });
    await pressNothingSent(page, m.id, ['4']);
    await page.keyboard.press('1'); // scratch on the break
    await settled(page, m.id, 1);
    expect((await stepsOf(m.id)).map((e) => e.step)).toEqual([{ shot: { firstContact: 1, cueBall: 'scratch' } }]);
    await ctx.close();
  });
});
