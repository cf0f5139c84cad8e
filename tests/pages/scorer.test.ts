/**
 * Scorer console and launcher end to end: real headless Chromium (playwright-core) at phone size against a
 * real in-process server (embedded SQLite store). Covers: creating a match from the launcher; a 14-1
 * sequence with a breaking-foul choice, a three-foul choice and a 14-ball re-rack with the rack-area
 * questions; a Rotation rack with a push out and a foul placement; undo; offline entry of three h.shots
 * that reach the server's log exactly once, in order, after the server comes back.
 * Screenshots go to artifacts/screenshots (git-ignored).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { PHONE, ScorerHarness, staticOnly } from '../helpers/scorer-harness';
import { GHOST_TAP_MS } from '../../web/src/scorer/tap-guard';

const run = chromiumAvailable();
const h = new ScorerHarness('cuecast-scorer-e2e-');
const { create, stateOf, stepsOf, settled, phone } = h;

/** Every visible button and select is at least 48 × 48 CSS px (touch targets). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, select, a')]
      .filter((el) => (el as HTMLElement).offsetParent !== null && !(el as HTMLButtonElement).disabled)
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.height < 47.5 || r.width < 47.5)
      .map(({ el, r }) => `${el.tagName} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`),
  );
}

describe.skipIf(!run)('scorer console in Chromium', () => {
  h.install();

  test('14-1 from the launcher: breaking foul → re-break, three fouls → re-rack, 14-ball re-rack, undo', { timeout: 90_000 }, async () => {
    const { ctx, page } = await phone();
    await page.goto(`${h.server.url}/`);
    await page.getByTestId('player-a').fill('Ann');
    await page.getByTestId('player-b').fill('Bob');
    await page.getByTestId('create').click();
    const row = page.getByTestId('match-row').filter({ hasText: 'Ann' }).first();
    await row.waitFor();
    await page.screenshot({ path: join(h.shots, 'launcher-390.png'), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await smallTargets(page)).toEqual([]);
    const id = (await row.getAttribute('data-id'))!;
    await row.getByTestId('link-scorer').click();
    await page.waitForURL(`**/scorer/${id}*`);

    // Opening break: only what decides it. One object ball to a cushion = breaking foul (S-9), −2.
    await page.getByTestId('break-panel').waitFor();
    await page.getByTestId('break-obj-1').click();
    await expect.poll(() => page.getByTestId('break-record').textContent()).toContain('breaking foul −2');
    await page.screenshot({ path: join(h.shots, 'scorer-141-break.png'), fullPage: true });
    expect(await smallTargets(page)).toEqual([]);
    await page.getByTestId('break-record').click();
    await page.getByTestId('choice-panel').waitFor();
    expect(await page.getByTestId('choice-title').textContent()).toContain('Bob decides');
    expect(await page.getByTestId('made').count()).toBe(0); // a pending choice blocks shot entry
    await page.getByTestId('choice-rebreak').click(); // Ann breaks again
    await page.getByTestId('break-record').waitFor();
    expect(await page.getByTestId('break-record').textContent()).toContain('legal break');
    await page.getByTestId('break-record').click(); // legal safety break
    let s = await settled(page, id, 3);
    expect([s.score, s.turn, s.breakShot]).toEqual([[-2, 0], 'B', false]);

    // Bob: 3 balls, then a miss.
    await page.getByTestId('count-plus').click();
    await page.getByTestId('count-plus').click();
    await page.getByTestId('foul').click();
    await page.screenshot({ path: join(h.shots, 'scorer-141-shot-foul-menu.png'), fullPage: true });
    expect(await smallTargets(page)).toEqual([]);
    await page.getByTestId('foul').click();
    expect(await page.getByTestId('made').textContent()).toContain('3 balls made');
    await page.getByTestId('made').click();
    await settled(page, id, 4);
    await page.getByTestId('miss').click();
    await settled(page, id, 5);

    // Ann fouls three times in a row (Bob misses between): the third costs 16 (S-14).
    const annFoul = async (f: string, v: number) => {
      await page.getByTestId('foul').click();
      await page.getByTestId(`foul-${f}`).click();
      await settled(page, id, v);
    };
    await annFoul('scratch', 6);
    await page.getByTestId('miss').click();
    await settled(page, id, 7);
    await annFoul('no-rail', 8);
    await page.getByTestId('miss').click();
    s = await settled(page, id, 9);
    expect(s.onTwoFouls).toEqual([true, false]);
    expect(await page.getByTestId('fouls-A').textContent()).toContain('on two fouls');
    await annFoul('touched-ball', 10);
    await page.getByTestId('choice-panel').waitFor();
    expect(await page.getByTestId('choice-title').textContent()).toContain('Three consecutive fouls: Bob decides');
    await page.screenshot({ path: join(h.shots, 'scorer-141-three-foul-choice.png'), fullPage: true });
    s = (await stateOf(id)).state;
    expect([s.score, s.awaiting]).toEqual([[-20, 3], 'three-foul-choice']);
    await page.getByTestId('choice-rerack').click(); // 15 balls, Ann breaks
    await page.getByTestId('break-record').click();
    s = await settled(page, id, 12);
    expect([s.rack, s.turn, s.ballsOnTable]).toEqual([2, 'B', 15]);

    // Bob runs 14 (keyboard: + ×13, Enter): one ball left → rack-area questions.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    for (let i = 0; i < 13; i++) await page.keyboard.press('+');
    expect(await page.getByTestId('count').textContent()).toBe('14');
    await page.keyboard.press('Enter');
    await page.getByTestId('rack-area').waitFor();
    await page.getByTestId('area-cue').click();
    await page.getByTestId('q-yes').click(); // break ball behind the head string
    await page.getByTestId('q-no').click(); // head spot free
    expect(await page.getByTestId('placement').textContent()).toContain('cue ball on the head spot');
    await page.screenshot({ path: join(h.shots, 'scorer-141-rack-area.png'), fullPage: true });
    await page.getByTestId('area-record').click();
    s = await settled(page, id, 13);
    expect([s.score, s.rack, s.ballsOnTable, s.turn, s.rackPlacement]).toEqual([
      [-20, 17],
      3,
      15,
      'B',
      { cueBall: 'head-spot', breakBall: 'as-is', racked: 14 },
    ]);

    // Undo is one tap and names what it takes back; then the same run with the one-tap "neither".
    expect(await page.getByTestId('undo').textContent()).toMatch(/Undo/);
    await page.getByTestId('undo').click();
    s = await settled(page, id, 14);
    expect([s.score, s.rack, s.ballsOnTable]).toEqual([[-20, 3], 2, 15]);
    for (let i = 0; i < 13; i++) await page.keyboard.press('+');
    await page.keyboard.press('Enter');
    await page.getByTestId('area-neither').click();
    s = await settled(page, id, 15);
    expect([s.score, s.rack, s.rackPlacement]).toEqual([[-20, 17], 3, { cueBall: 'as-is', breakBall: 'as-is', racked: 14 }]);
    expect(await page.getByTestId('score-B').textContent()).toBe('17');
    await ctx.close();
  });

  test('Rotation at 320 px in zh-TW: break, push out + pass, foul with placement, undo, the last steps in zh-TW and ja', async () => {
    const m = await create({ discipline: 'rotation', players: ['Ann', 'Bob'] });
    const ctx = await h.browser.newContext({ viewport: { width: 320, height: 720 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    await page.goto(`${m.urls.scorer.replace('#', '?lang=zh-TW#')}`);
    await page.getByTestId('rot-break-panel').waitFor();
    await page.getByTestId('status').filter({ hasText: '已連線' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.getByTestId('ball-2').click();
    await page.getByTestId('ball-9').click();
    await page.screenshot({ path: join(h.shots, 'scorer-rotation-picker-320-zh-TW.png'), fullPage: true });
    expect(await smallTargets(page)).toEqual([]);
    await page.getByTestId('break-record').click();
    let s = await settled(page, m.id, 1);
    expect([s.score, s.turn, s.pushOutAvailable]).toEqual([[11, 0], 'A', true]);

    // Push out: Bob decides, passes it back.
    expect(await page.getByTestId('push-out').textContent()).toBe('推桿');
    await page.getByTestId('push-out').click();
    await page.getByTestId('choice-pass').click();
    s = await settled(page, m.id, 3);
    expect([s.turn, s.awaiting, s.pushOutAvailable]).toEqual(['A', null, false]);
    expect(await page.getByTestId('push-out').count()).toBe(0);

    // Ann scratches while pocketing the 1: Bob places; "as is" is offered for neither ball (D-20, R-8).
    await page.getByTestId('ball-1').click();
    await page.getByTestId('foul').click();
    await page.getByTestId('foul-scratch').click();
    await page.getByTestId('choice-panel').waitFor();
    expect(await page.getByTestId('place-as-is-as-is').count()).toBe(0);
    expect(await page.getByTestId('place-kitchen-as-is').count()).toBe(0);
    expect(await page.getByTestId('place-kitchen-foot-spot').count()).toBe(1);
    await page.screenshot({ path: join(h.shots, 'scorer-rotation-placement-320-zh-TW.png'), fullPage: true });
    await page.getByTestId('place-kitchen-center-spot').click();
    s = await settled(page, m.id, 5);
    expect([s.turn, s.ballInHand, s.lowestBall, s.fouls]).toEqual(['B', 'kitchen', 1, [1, 0]]);

    // Bob makes the 1 (first contact defaults to the lowest ball), then misses; undo the miss.
    await page.getByTestId('ball-1').click();
    await page.getByTestId('record').click();
    s = await settled(page, m.id, 6);
    expect(s.score).toEqual([11, 1]);
    // "Miss" sits where "Record" was: a referee taps it after the shot, not within a double tap (tap-guard.ts).
    await page.waitForTimeout(GHOST_TAP_MS);
    await page.getByTestId('miss').click();
    s = await settled(page, m.id, 7);
    expect(s.turn).toBe('A');
    await page.getByTestId('undo').click();
    s = await settled(page, m.id, 8);
    expect([s.turn, s.score, s.steps]).toEqual(['B', [11, 1], 6]);
    // The undo says what it took back (issue 9: "Undone: Ann +3"), until the next step.
    expect(await h.text(page, 'undone')).toBe('已撤銷：Bob 未進球，連續得分 1 結束');
    // The last steps and the undo button in Chinese, then in Japanese through the language switch: the
    // pages' words from the server's outcomes, with the player, the points and the run.
    const recent = () => page.getByTestId('recent').locator('li').allTextContents();
    await expect
      .poll(recent)
      .toEqual(['Ann \u2014 母球落袋 \u00b7 Bob 於犯規後擺放母球與最小號球', 'Bob 擺放：1 號放中心點 \u00b7 Bob：開球線內側自由球', 'Bob +1，連續得分 1']);
    expect(await page.getByTestId('undo').textContent()).toBe('↶ 復原: Bob +1，連續得分 1');
    await page.locator('section.undo').screenshot({ path: join(h.shots, 'scorer-recent-zh-TW.png') });
    await page.selectOption('[data-f="lang"]', 'ja');
    await expect
      .poll(recent)
      .toEqual([
        'Ann \u2014 スクラッチ \u00b7 Bob がファウル後の配置を行う',
        'Bob の配置：1番をセンタースポットへ \u00b7 Bob：ヘッドストリングの内側からフリーボール',
        'Bob +1、ラン1',
      ]);
    await page.locator('section.undo').screenshot({ path: join(h.shots, 'scorer-recent-ja.png') });
    expect(await h.text(page, 'undone')).toBe('取り消しました：Bob ミス、ラン1で終了');
    await page.getByTestId('miss').click();
    await settled(page, m.id, 9);
    expect(await page.getByTestId('undone').count()).toBe(0);
    await ctx.close();
  });

  test(
    'offline: three h.shots queue ("offline — 3 queued"), survive a reload, and reach the log once, in order, on reconnect',
    { timeout: 60_000 },
    async () => {
      const m = await create({ discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 12 } });
      const { ctx, page } = await phone();
      await page.goto(m.urls.scorer);
      await page.getByTestId('shot-panel').waitFor();
      await page.locator('[data-testid=status][data-status=live]').waitFor();

      const port = h.server.port;
      await h.server.close(); // the socket is gone: the venue Wi-Fi dropped
      await page.getByTestId('status').filter({ hasText: 'offline' }).waitFor({ timeout: 10_000 });
      await page.getByTestId('made').click();
      await page.getByTestId('count-plus').click();
      await page.getByTestId('made').click();
      await page.getByTestId('miss').click();
      await page.getByTestId('status').filter({ hasText: 'offline — 3 queued' }).waitFor();
      expect(await page.getByTestId('queued-item').count()).toBe(3);
      await page.screenshot({ path: join(h.shots, 'scorer-offline-queued.png'), fullPage: true });
      const queued = (await page.evaluate((id) => JSON.parse(localStorage.getItem(`cuecast.outbox.${id}`) ?? '[]'), m.id)) as {
        stepId: string;
        expectedVersion: number;
      }[];
      expect(queued.map((e) => e.expectedVersion)).toEqual([0, 1, 2]);
      expect(new Set(queued.map((e) => e.stepId)).size).toBe(3);

      // Reload while the socket is still down: a plain static server hands out the page on the same address
      // (no Socket.IO there). The outbox survives the reload with the same ids.
      const pagesOnly = await staticOnly(port);
      await page.reload();
      await page.getByTestId('status').filter({ hasText: 'offline — 3 queued' }).waitFor({ timeout: 10_000 });
      const reloaded = (await page.evaluate((id) => JSON.parse(localStorage.getItem(`cuecast.outbox.${id}`) ?? '[]'), m.id)) as { stepId: string }[];
      expect(reloaded.map((e) => e.stepId)).toEqual(queued.map((e) => e.stepId));
      await pagesOnly.close();

      await h.restartServer(port); // the Wi-Fi is back: same address, same store
      expect((await stateOf(m.id)).version).toBe(0);
      const s = await settled(page, m.id, 3);
      await expect.poll(() => page.getByTestId('queued-item').count(), { timeout: 10_000 }).toBe(0);
      const log = await stepsOf(m.id);
      expect(log.map((e) => e.stepId)).toEqual(queued.map((e) => e.stepId));
      expect(log.map((e) => e.step)).toEqual([
        { shot: { call: { made: true }, pocketed: 1 } },
        { shot: { call: { made: true }, pocketed: 2 } },
        { shot: { call: { made: false } } },
      ]);
      expect([s.score, s.turn, s.ballsOnTable]).toEqual([[3, 0], 'B', 9]);
      expect(await page.evaluate((id) => localStorage.getItem(`cuecast.outbox.${id}`), m.id)).toBeNull();
      await ctx.close();
    },
  );
});
