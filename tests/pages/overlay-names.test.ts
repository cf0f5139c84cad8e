/**
 * One name form per player for a whole match (issue 29), in real headless Chromium against a real server: the
 * table overlay follows a table of an event while a whole match is played over REST (the intro card before, every
 * step's scorebug, caption and moment, the summary card after), in the bar and the corner layout, in English and
 * Traditional Chinese. Each player's name is printed in one form everywhere (the bar or corner bug, every
 * caption, every moment, both cards), and both players' names are set at one size on the scorebug.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, settled } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch } from '../helpers/events';
import { OverlayHarness } from '../helpers/overlay-harness';
import { api } from '../helpers/server';

const hasChromium = chromiumAvailable();
/** Long Latin names (the full name fits no slot) and a CJK one. */
const ROSTER = [
  { name: 'Marcus Holloway-Brennan', country: 'GB-ENG' },
  { name: 'Maximilian Alexander von Hohenberg-Castellano', short: 'Max Hohenberg', country: 'DE' },
  { name: '渡辺健二郎', country: 'JP' },
];

/** Every name the page prints now, by player (A, B): scorebug, moment, caption pieces naming them, card. */
function namesOnAir(page: Page): Promise<{ where: string; key: string; text: string; px: number }[]> {
  return page.evaluate(() => {
    const out: { where: string; key: string; text: string; px: number }[] = [];
    const px = (e: Element) => parseFloat(getComputedStyle(e).fontSize);
    for (const k of ['A', 'B']) {
      const n = document.querySelector(`.gfx [data-f="name-${k}"]`);
      if (n) out.push({ where: 'scorebug', key: k, text: n.textContent!, px: px(n) });
      const c = document.querySelector(`[data-f="card"][data-up="1"] [data-f="card-name-${k}"]`);
      if (c) out.push({ where: 'card', key: k, text: c.textContent!, px: px(c) });
      for (const m of document.querySelectorAll(`[data-f="moment-side-${k}"] [data-f^="moment-name"]`))
        out.push({ where: 'moment', key: k, text: m.textContent!, px: px(m) });
    }
    const single = document.querySelector('[data-f="moment"]');
    const one = single?.querySelector(':scope > .m-side [data-f="moment-name"]');
    if (single && one)
      out.push({ where: 'moment', key: [...single.classList].find((c) => c.startsWith('pl-'))!.slice(3), text: one.textContent!, px: px(one) });
    for (const nb of document.querySelectorAll('[data-f="caption"] .nb')) out.push({ where: 'caption', key: '?', text: nb.textContent!, px: px(nb) });
    return out;
  });
}

describe.skipIf(!hasChromium)('one name form per player for a whole match', () => {
  const h = new OverlayHarness();
  h.install();

  for (const [pair, label] of [
    [['p1', 'p2'], 'two long Latin names (one with a short name)'],
    [['p2', 'p3'], 'a long Latin name and a CJK name'],
  ] as const) {
    it(`${label}: one form each across the scorebug, every caption and moment and both cards, in both layouts, en and zh-TW; both names at one size`, async () => {
      const ev = await createEvent(h.url, { ...EVENT, tables: ['Table 1'], roster: ROSTER });
      const problems: string[] = [];
      for (const layout of ['bar', 'corner']) {
        for (const lang of ['en', 'zh-TW']) {
          const m = await tableMatch(h.url, ev, 'table-1', [...pair], true);
          const press = async (action: string) =>
            expect((await api(h.url, `/api/events/${ev.id}/tables/table-1/cards/${action}`, { method: 'POST', token: ev.organiserToken })).status).toBe(200);
          const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
          const seen: { where: string; key: string; text: string; px: number }[] = [];
          const ctx = `${layout} ${lang}`;
          try {
            await page.goto(`${h.url}/overlay/table/${ev.id}/table-1?layout=${layout}&lang=${lang}&anim=0&captions=all&caption=0&moment=60`);
            await page.locator('[data-f="score-A"]').waitFor({ timeout: 30_000 });
            await settled(page);
            seen.push(...(await namesOnAir(page)));
            await press('intro');
            await page.locator('[data-f="card"][data-kind="intro"][data-up="1"] [data-f="card-name-A"]').waitFor({ timeout: 30_000 });
            await settled(page);
            seen.push(...(await namesOnAir(page)));
            await press('hide');
            await page
              .locator('[data-f="card"][data-up="1"]')
              .waitFor({ state: 'detached', timeout: 30_000 })
              .catch(() => undefined);
            const steps = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });
            for (const [i, step] of steps.entries()) {
              await recordStep(h.url, m, step);
              const state = (await api(h.url, `/api/matches/${m.id}`)).body.state as { score: [number, number] };
              await page.waitForFunction(
                ([a, b]) => document.querySelector('[data-f="score-A"]')?.textContent === a && document.querySelector('[data-f="score-B"]')?.textContent === b,
                [String(state.score[0]), String(state.score[1])],
                { timeout: 30_000 },
              );
              if (i === steps.length - 1) await page.locator('[data-f="moment"][data-kind="match-won"]').waitFor({ timeout: 30_000 });
              await settled(page);
              const now = await namesOnAir(page);
              seen.push(...now);
              // Both names on the scorebug at one size, at every step.
              const sizes = new Set(now.filter((n) => n.where === 'scorebug').map((n) => n.px));
              if (sizes.size !== 1) problems.push(`${ctx} step ${i}: the scorebug's names at ${[...sizes].join(' and ')} px`);
            }
            await press('summary');
            await page.locator('[data-f="card"][data-kind="summary"][data-up="1"] [data-f="card-name-A"]').waitFor({ timeout: 30_000 });
            await settled(page);
            seen.push(...(await namesOnAir(page)));
          } finally {
            await page.close();
          }
          for (const where of ['scorebug', 'card', 'moment']) if (!seen.some((n) => n.where === where)) problems.push(`${ctx}: no name seen on the ${where}`);
          const forms = { A: new Set<string>(), B: new Set<string>() };
          for (const n of seen) if (n.key === 'A' || n.key === 'B') forms[n.key].add(n.text);
          for (const k of ['A', 'B'] as const)
            if (forms[k].size !== 1) problems.push(`${ctx}: player ${k} in ${forms[k].size} forms: ${[...forms[k]].join(' | ')}`);
          // A caption names a player only in that player's one form.
          const all = new Set([...forms.A, ...forms.B]);
          for (const n of seen.filter((s) => s.where === 'caption')) if (!all.has(n.text)) problems.push(`${ctx}: a caption names "${n.text}"`);
        }
      }
      expect(problems.join('\n')).toBe('');
    });
  }
});
