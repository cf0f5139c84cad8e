/**
 * Spectator pages in real Chromium (phone viewport) against a real server: `/watch` lists matches with
 * live scores, `/watch/<id>` shows score and sheet, switches language, offers a share link, and
 * `?delay=<s>` holds the first state and every update back for that long ("syncing" until then).
 * Screenshots kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { api, createMatch, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [50, 60] };
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const pot = (b: number): Step => ({ shot: { call: { ball: b }, pocketed: [b] } });

let n = 0;
async function record(url: string, m: { id: string; scorerToken: string }, step: Step): Promise<void> {
  const res = await api(url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `w-${++n}`, step } });
  if (res.status !== 201) throw new Error(`record: ${res.status} ${JSON.stringify(res.body)}`);
}

const text = (page: Page, f: string) => page.evaluate((f) => document.querySelector(`[data-f="${f}"]`)?.textContent ?? null, f);

describe.skipIf(!hasChromium)('spectator pages in Chromium', () => {
  let browser: Browser;
  let ctx: BrowserContext;
  let server: RunningServer;
  let dataDir: string;
  let m: { id: string; scorerToken: string };

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-watch-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
    ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    m = await createMatch(server.url, SETUP);
    await record(server.url, m, BREAK);
    await record(server.url, m, pot(3));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('/watch lists the match and follows its score live', async () => {
    const page = await ctx.newPage();
    try {
      await page.goto(`${server.url}/watch?lang=en`);
      const card = page.locator(`a[data-match="${m.id}"]`);
      await card.waitFor();
      expect(await card.locator('[data-f="score-B"]').textContent()).toBe('1');
      await record(server.url, m, pot(5));
      await page.waitForFunction((id) => document.querySelector(`a[data-match="${id}"] [data-f="score-B"]`)?.textContent === '2', m.id);
      await page.screenshot({ path: join(screenshotDir(), 'watch-list-390.png') });
      // The list has the language switch of every page: the page follows it, and the match opens in it.
      expect(await page.locator('h1').textContent()).toBe('Matches');
      await page.selectOption('[data-f="lang"]', 'ja');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent !== 'Matches');
      expect(await page.locator('html').getAttribute('lang')).toBe('ja');
      expect(new URL(page.url()).searchParams.get('lang')).toBe('ja');
      await page.screenshot({ path: join(screenshotDir(), 'watch-list-ja-390.png') });
      await card.click();
      await page.waitForURL(`**/watch/${m.id}**`);
      await page.waitForFunction(() => document.querySelector('[data-f="score-B"]')?.textContent === '2');
      expect(new URL(page.url()).searchParams.get('lang')).toBe('ja');
    } finally {
      await page.close();
    }
  });

  it('/watch lists a match with no step under "Not started", not "Live now", and moves it to "Live now" at its first shot', async () => {
    const fresh = await createMatch(server.url, { ...SETUP, players: ['Cleo', 'Dan'] });
    const page = await ctx.newPage();
    try {
      await page.goto(`${server.url}/watch?lang=en`);
      const waiting = page.locator(`[data-testid="watch-not-started"] a[data-match="${fresh.id}"]`);
      await waiting.waitFor();
      expect(await page.locator('[data-testid="watch-not-started"] h2').textContent()).toBe('Not started');
      expect(await page.locator(`[data-testid="watch-live"] a[data-match="${fresh.id}"]`).count()).toBe(0);
      expect(await page.locator(`[data-testid="watch-live"] a[data-match="${m.id}"]`).count()).toBe(1);
      await record(server.url, fresh, BREAK);
      await page.locator(`[data-testid="watch-live"] a[data-match="${fresh.id}"]`).waitFor();
      expect(await page.locator('[data-testid="watch-not-started"]').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('/watch/<id> shows score and sheet, switches language and offers a share link', async () => {
    const page = await ctx.newPage();
    try {
      await page.goto(`${server.url}/watch/${m.id}?lang=en`);
      await page.waitForFunction(() => document.querySelector('[data-f="score-B"]')?.textContent === '2');
      expect(await text(page, 'name-A')).toBe('Ann');
      expect(await page.locator('table[data-f="sheet"] tbody tr').count()).toBeGreaterThan(0);
      expect(await page.textContent('h2')).toBe('Score sheet');
      // No horizontal scrolling on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(screenshotDir(), 'watch-match-390-en.png'), fullPage: true });

      await page.selectOption('[data-f="lang"]', 'ja');
      await page.waitForFunction(() => document.querySelector('h2')?.textContent === 'スコアシート');
      expect(new URL(page.url()).searchParams.get('lang')).toBe('ja');
      await page.selectOption('[data-f="lang"]', 'zh-TW');
      await page.waitForFunction(() => document.querySelector('h2')?.textContent === '記分表');
      await page.screenshot({ path: join(screenshotDir(), 'watch-match-390-zh-TW.png'), fullPage: true });

      // Share: without a share sheet the link goes to the clipboard (or is shown to copy).
      await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined, configurable: true }));
      await page.click('[data-f="share"]');
      await page.waitForSelector('[data-f="shared"]');
      const shared = await text(page, 'shared');
      expect(['已複製連結', page.url()]).toContain(shared);
      if (shared === '已複製連結') expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    } finally {
      await page.close();
    }
  });

  it('?delay=2 holds the first state and every update back about two seconds, syncing until then', async () => {
    const cur = await api(server.url, `/api/matches/${m.id}`);
    const before = String(cur.body.state.score[1]);
    const page = await ctx.newPage();
    try {
      const t0 = Date.now();
      await page.goto(`${server.url}/watch/${m.id}?lang=en&delay=2`);
      // The first state has arrived but is held back: a placeholder instead of the score.
      await page.waitForSelector('[data-f="syncing"]');
      expect(await text(page, 'syncing')).toBe('Syncing with the stream (2 s)…');
      expect(await text(page, 'score-B')).toBeNull();
      expect(await text(page, 'delay')).toBe('Delayed 2 s');
      await page.screenshot({ path: join(screenshotDir(), 'watch-syncing-390.png') });
      // A shot recorded while syncing. At time t the page shows the state it received at t − 2 s:
      // first the state it joined with…
      await page.waitForTimeout(600);
      const sentAt = Date.now();
      await record(server.url, m, pot(7));
      await page.waitForSelector('[data-f="score-B"]', { timeout: 5000 });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
      expect(await text(page, 'score-B')).toBe(before);
      expect(await text(page, 'syncing')).toBeNull();
      // …then the shot, about two seconds after it was recorded.
      const want = String(Number(before) + 1);
      await page.waitForFunction((w) => document.querySelector('[data-f="score-B"]')?.textContent === w, want, { timeout: 5000 });
      const shownAfter = Date.now() - sentAt;
      expect(shownAfter).toBeGreaterThanOrEqual(1900);
      expect(shownAfter).toBeLessThan(4000);

      // Japanese and Traditional Chinese placeholders.
      for (const [lang, words] of [
        ['ja', '配信と同期しています (2 秒)…'],
        ['zh-TW', '正在與直播同步（2 秒）…'],
      ] as const) {
        await page.goto(`${server.url}/watch/${m.id}?lang=${lang}&delay=2`);
        await page.waitForSelector('[data-f="syncing"]');
        expect(await text(page, 'syncing')).toBe(words);
      }
    } finally {
      await page.close();
    }
  });

  it('/watch/<id> at 390 px: the whole score sheet fits, Total columns included (14-1 and Rotation, en/ja/zh-TW)', async () => {
    // A Rotation match with ball lists, a foul and three-digit totals: the widest sheet a phone gets.
    const rot = await createMatch(server.url, { discipline: 'rotation', players: ['Ann', 'Bob'], targets: [240, 240], start: { score: [100, 110] } });
    for (const step of [
      { shot: { firstContact: 1, pocketed: [1, 12, 14] } },
      { shot: { firstContact: 2 } },
      { shot: { firstContact: 2, pocketed: [2, 3, 13] } },
      { shot: { firstContact: 4, cueBall: 'scratch' } },
      { choice: { cueBall: 'kitchen', lowestBall: 'as-is' } },
      { shot: { firstContact: 4, pocketed: [4, 11, 15] } },
      { shot: { firstContact: 5 } },
    ] as Step[])
      await record(server.url, rot, step);
    const page = await ctx.newPage();
    try {
      for (const id of [m.id, rot.id]) {
        for (const lang of ['en', 'ja', 'zh-TW']) {
          await page.goto(`${server.url}/watch/${id}?lang=${lang}`);
          await page.waitForSelector('table[data-f="sheet"] [data-f="B-total"]');
          const fit = await page.evaluate(() => {
            const table = document.querySelector('table[data-f="sheet"]')!;
            const wrap = table.parentElement!;
            const rights = [...document.querySelectorAll('[data-f="B-total"]')].map((e) => e.getBoundingClientRect().right);
            return {
              overflow: wrap.scrollWidth - wrap.clientWidth,
              totalRight: Math.max(...rights),
              cardRight: wrap.getBoundingClientRect().right,
              doc: document.documentElement.scrollWidth,
            };
          });
          expect(fit.overflow, `${id} ${lang}`).toBeLessThanOrEqual(0);
          expect(fit.totalRight, `${id} ${lang}`).toBeLessThanOrEqual(fit.cardRight + 0.5);
          expect(fit.doc, `${id} ${lang}`).toBeLessThanOrEqual(390);
        }
      }
      await page.screenshot({ path: join(screenshotDir(), 'watch-rotation-sheet-390-zh-TW.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});
