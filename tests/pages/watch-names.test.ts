/**
 * The spectator page's names on a phone (issue 17, item 2), in real Chromium at 390 × 844 against a real server:
 * long names ("Marcus Holloway-Brennan", "Bob Brown-Fitzgerald", "Kenji Watanabe", a 45-character one) with
 * flags, in 14-1 and Rotation, in English, Japanese and Traditional Chinese. Each name in the score line is on
 * one line, wholly inside its box (not cut by the box's edge, no "…"), one of the name's forms (lib/names.ts
 * `nameForms`: full, short name, automatic short form) and at least 14 px unless it is the shortest form; the
 * score sheet's header names likewise (floor 11 px), and the page is no wider than the phone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Step } from '../../shared/protocol/steps';
import { nameForms } from '../../web/src/lib/names';
import { chromiumAvailable, launchChromium, screenshotDir, settled } from '../helpers/browser';
import { api, createMatch, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const pot = (b: number): Step => ({ shot: { call: { ball: b }, pocketed: [b] } });
const MATCHES = [
  {
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: ['Marcus Holloway-Brennan', 'Bob Brown-Fitzgerald'],
      countries: ['GB-ENG', 'US'],
      targets: [150, 150],
    },
    steps: [BREAK, pot(1), pot(2)],
  },
  {
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: ['Kenji Watanabe', 'Maximilian Alexander von Hohenberg-Castellano'],
      shortNames: [null, 'Max H-C'],
      countries: ['JP', 'DE'],
      targets: [125, 125],
    },
    steps: [BREAK, pot(1)],
  },
  {
    setup: { discipline: 'rotation', players: ['Bob Brown-Fitzgerald', 'Kenji Watanabe'], countries: ['US', 'JP'], targets: [240, 240] },
    steps: [{ shot: { pocketed: [1, 9] } }, { shot: { pocketed: [2] } }],
  },
];

interface Seen {
  f: string;
  text: string;
  px: number;
  last: boolean;
  lines: number;
  cut: boolean;
  width: number;
  box: number;
}

describe.skipIf(!hasChromium)('spectator page names at 390 px', () => {
  let browser: Browser;
  let ctx: BrowserContext;
  let server: RunningServer;
  let dataDir: string;

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-watch-names-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
    ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every name fits on one line, whole (fit down to 14 px, then the short name, then the family name), never cut', async () => {
    const problems: string[] = [];
    let k = 0;
    for (const { setup, steps } of MATCHES) {
      const m = await createMatch(server.url, setup);
      for (const step of steps) {
        const res = await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `wn-${++k}`, step } });
        if (res.status !== 201) throw new Error(`record: ${res.status} ${JSON.stringify(res.body)}`);
      }
      const page = await ctx.newPage();
      try {
        for (const lang of ['en', 'ja', 'zh-TW']) {
          await page.goto(`${server.url}/watch/${m.id}?lang=${lang}`);
          await page.locator('[data-f="name-A"]').waitFor({ timeout: 10_000 });
          await page.locator('.sheet').waitFor({ timeout: 10_000 });
          await settled(page);
          const seen: Seen[] = await page.evaluate(() => {
            const lines = (el: Element) => {
              const tops = new Set<number>();
              const range = document.createRange();
              range.selectNodeContents(el);
              for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
              return tops.size;
            };
            const named = [...document.querySelectorAll<HTMLElement>('[data-f="name-A"], [data-f="name-B"], [data-f="sheet-name-A"], [data-f="sheet-name-B"]')];
            return named.map((el) => {
              const range = document.createRange();
              range.selectNodeContents(el);
              const text = range.getBoundingClientRect();
              // The name's box: FitText's, and the header cell for the sheet's (the cell must not cut it either).
              const box = (el.closest('th') ?? el.parentElement!).getBoundingClientRect();
              return {
                f: el.dataset.f!,
                text: el.textContent!,
                px: parseFloat(getComputedStyle(el).fontSize),
                last: el.dataset.last === '1',
                lines: lines(el),
                // The text's own extent against its box's: past an edge, the box cuts it off (an ellipsis or a clip).
                cut: text.left < box.left - 1 || text.right > box.right + 1,
                width: text.width,
                box: box.width,
              };
            });
          });
          const where = `${setup.players.join(' / ')} ${lang}`;
          expect(seen.length, where).toBe(4);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(390);
          for (const s of seen) {
            if (s.text.includes('\u2026')) problems.push(`${where}: "${s.text}" (${s.f}) ends with an ellipsis`);
            if (s.lines !== 1) problems.push(`${where}: "${s.text}" (${s.f}) on ${s.lines} lines`);
            if (s.cut) problems.push(`${where}: "${s.text}" (${s.f}) cut: ${s.width.toFixed(1)} px in a ${s.box.toFixed(1)} px box`);
            const i = s.f.endsWith('-A') ? 0 : 1;
            const forms = nameForms(setup.players[i]!, (setup as { shortNames?: (string | null)[] }).shortNames?.[i] ?? '');
            if (!forms.includes(s.text)) problems.push(`${where}: "${s.text}" is none of ${JSON.stringify(forms)}`);
            const floor = s.f.startsWith('sheet-') ? 11 : 14;
            if (s.px < floor && !s.last) problems.push(`${where}: "${s.text}" at ${s.px} px, below the ${floor} px floor, while a shorter form is left`);
          }
          await page.screenshot({ path: join(screenshotDir(), `watch-names-390-${m.id}-${lang}.png`) });
        }
      } finally {
        await page.close();
      }
    }
    expect(problems.join('\n')).toBe('');
  });
});
