/**
 * The overlay's colour parameters (`bg`, `accent`, and the event's theme preset) in real headless Chromium:
 * whatever colours a producer picks, every text stays at ≥ 4.5:1 against what is behind it — the text on the
 * accent (race, caption, winner badge, card titles) takes black or white, whichever reads; a winner's score drawn
 * in the accent falls back to the text colour when the accent does not read on the panel; a light `bg` takes the
 * light palette's texts (a dark one the dark palette's), whatever `theme` says.
 */
import { describe, it } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch } from '../helpers/events';
import { expectLegible, texts } from '../helpers/legibility';
import { OverlayHarness } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann Lee', 'Bob Smith'], targets: [3, 3] };
const WIN = stepsToWin(SETUP);

/** Colour parameters a producer might well try (each once with a caption on air, once with a winner). */
const COLOURS = [
  'theme=light&accent=ff8800', // the accent of the documents' event preset on the light theme: white on orange before
  'theme=dark&accent=0a7d32', // a dark green accent on the dark theme: near-black on green before
  'theme=light&accent=ffe600', // yellow: the winner's score in yellow on a white panel before
  'theme=dark&accent=1a1a1a', // an accent as dark as the panel
  'bg=ffffff', // a white panel with the dark theme's light texts before
  'theme=light&bg=202a3a', // a dark panel with the light theme's dark texts before
  'bg=7a7a7a&accent=7a7a7a', // mid grey everywhere
];

describe.skipIf(!hasChromium)('overlay colours from the URL and the event preset', () => {
  const h = new OverlayHarness();
  h.install();

  // One test per colour set (four page loads each), so a slow machine never runs one test into its timeout.
  let matches: Promise<{ live: { id: string }; won: { id: string } }> | null = null;
  const bothMatches = () =>
    (matches ??= (async () => ({
      live: await h.match(SETUP, WIN.slice(0, 3)), // A on a run, a caption on air
      won: await h.match(SETUP, WIN), // A has won: the winner's score in the accent
    }))());
  for (const q of COLOURS) {
    it(`every text reads (≥ 4.5:1) with ${q}, on the scorebug with a caption and with a winner`, async () => {
      const { live, won } = await bothMatches();
      for (const layout of ['bar', 'corner']) {
        for (const [what, m] of [
          ['caption', live],
          ['winner', won],
        ] as const) {
          const page = await h.open(m.id, `?${q}&layout=${layout}&caption=0&anim=0&hide=moments`);
          try {
            if (what === 'caption') await page.locator('[data-f="caption"]').waitFor();
            else await page.locator('[data-f="winner-A"]').waitFor();
            expectLegible(await texts(page), `${q} ${layout} ${what}`, 6);
          } finally {
            await page.close();
          }
        }
      }
    });
  }

  it('the table overlay with the event preset: the intro and the summary read with the preset accent on either theme', async () => {
    for (const theme of ['dark', 'light']) {
      const ev = await createEvent(h.url, { ...EVENT, theme: { theme, accent: 'ff8800' } });
      const m = await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
      const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
      try {
        await page.goto(`${h.url}/overlay/table/${ev.id}/table-1?anim=0`);
        await page.locator('[data-f="card"][data-kind="intro"][data-up="1"]').waitFor();
        expectLegible(await texts(page, '.card'), `intro ${theme}`, 6, ['name', 'label']);
        for (const s of stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] })) await recordStep(h.url, m, s);
        await page.locator('[data-f="card"][data-kind="summary"][data-up="1"]').waitFor();
        expectLegible(await texts(page, '.card'), `summary ${theme}`, 6);
        await h.shot(page, `overlay-colours-summary-${theme}-accent-ff8800`);
      } finally {
        await page.close();
      }
    }
  });
});
