/**
 * `npm run bench:pages` — the OBS overlay's budgets as figures (issue 10), printed as a table:
 * - JS gzip: the built overlay's script and each language's table chunk (gzip -9), and the total a page in each
 *   language loads against the 48 KB budget (OVERLAY_JS_BUDGET); the same for the table overlay (its script, on-air and cards
 *   chunks) against its ceiling; then each page's optional parts (overlay/src/parts.ts), fetched only when used;
 * - idle timers: timer / animation-frame callbacks fired and animations running in 3 s of idle, after boot and
 *   after an animated update (with Engine.IO heartbeat pings, the only expected timer activity);
 * - first state painted after connect: BENCH_LOADS (default 15) fresh page loads in English and in Japanese,
 *   median and p95;
 * - pushed state painted after the record ack: BENCH_SHOTS (default 20) shots, median and p95.
 * One in-process server (the embedded SQLite store in a temp dir) and one headless Chromium; builds the pages if stale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../tests/helpers/browser';
import { createMatch, legalSteps, startTestServer } from '../tests/helpers/server';
import { ensureBuilt } from '../tests/helpers/global-setup';
import { LANGS } from '../web/src/lib/i18n';
import {
  countPings,
  firstPaintMs,
  IDLE_PROBE,
  idleWindow,
  medianP95,
  OVERLAY_JS_BUDGET,
  OVERLAY_PARTS,
  type OverlayPart,
  overlayPartScript,
  overlayScripts,
  pushPaintMs,
  TABLE_OVERLAY_JS_CEILING,
} from '../tests/helpers/pages-probes';

const LOADS = Math.max(10, Number(process.env.BENCH_LOADS ?? 15));
const SHOTS = Math.max(10, Number(process.env.BENCH_SHOTS ?? 20));
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [1000, 1000] } as const;

const rows: [string, string, string][] = [];
const row = (what: string, value: string, note = '') => rows.push([what, value, note]);
const f1 = (n: number) => n.toFixed(1);

await ensureBuilt();
const dataDir = mkdtempSync(join(tmpdir(), 'cuecast-bench-pages-'));
const server = await startTestServer({ dataDir });
const browser = await launchChromium();
try {
  // JS gzip, from the built page: its script, then each language's table chunk and the total a page in it loads.
  const seen = new Set<string>();
  for (const lang of LANGS) {
    const scripts = overlayScripts(lang);
    for (const s of scripts.filter((x) => !seen.has(x.path))) {
      seen.add(s.path);
      row(`JS ${s.path}`, `${s.gzip} B gzip`, `${s.raw} B raw`);
    }
    const total = scripts.reduce((a, s) => a + s.gzip, 0);
    row(
      `JS total, lang=${lang} (gzip -9)`,
      `${total} B`,
      `${f1(total / 1024)} KB of ${OVERLAY_JS_BUDGET / 1024} KB budget${total > OVERLAY_JS_BUDGET ? ` — over by ${total - OVERLAY_JS_BUDGET} B` : `, ${OVERLAY_JS_BUDGET - total} B to spare`}`,
    );
  }
  // The table overlay (/overlay/table/…), a page of its own: the same rows against its ceiling.
  for (const lang of LANGS) {
    const scripts = overlayScripts(lang, undefined, 'overlay-table');
    for (const s of scripts.filter((x) => !seen.has(x.path))) {
      seen.add(s.path);
      row(`JS ${s.path}`, `${s.gzip} B gzip`, `${s.raw} B raw`);
    }
    const total = scripts.reduce((a, s) => a + s.gzip, 0);
    row(
      `JS total, table overlay, lang=${lang} (gzip -9)`,
      `${total} B`,
      `${f1(total / 1024)} KB (ceiling ${TABLE_OVERLAY_JS_CEILING / 1024} KB, ${TABLE_OVERLAY_JS_CEILING - total} B to spare)`,
    );
  }
  // The optional parts (overlay/src/parts.ts), each page's own chunk, fetched only when used: in no total above.
  const WHEN: Record<OverlayPart, string> = { odds: 'show=odds', milestones: 'milestones=auto', debug: 'debug=1', cards: 'a card up' };
  for (const page of ['overlay', 'overlay-table'] as const) {
    for (const part of Object.keys(OVERLAY_PARTS) as OverlayPart[]) {
      if (page === 'overlay' && part === 'cards') continue;
      const s = overlayPartScript(part, page);
      row(`JS part ${part}, ${page}: ${s.path}`, `${s.gzip} B gzip`, `${s.raw} B raw; fetched only with ${WHEN[part]}`);
    }
  }

  // A match in play: every step pots one ball (legalSteps).
  const steps = legalSteps(1 + SHOTS + 2, SETUP);
  const m = await createMatch(server.url, SETUP);
  const rec = (i: number) =>
    fetch(`${server.url}/api/matches/${m.id}/steps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${m.scorerToken}` },
      body: JSON.stringify({ stepId: `bench-${i}`, step: steps[i] }),
    });
  if ((await rec(0)).status !== 201) throw new Error('record failed');

  // Idle timers.
  {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript(IDLE_PROBE);
    const pings = countPings(page);
    await page.goto(`${server.url}/overlay/${m.id}?caption=1`);
    await firstPaintMs(page);
    await page.waitForTimeout(500);
    const boot = await idleWindow(page, pings, 3000);
    if ((await rec(1)).status !== 201) throw new Error('record failed');
    await page.waitForTimeout(2000); // animations and the 1 s caption are over
    const after = await idleWindow(page, pings, 3000);
    for (const [label, i] of [
      ['after boot', boot],
      ['after an update', after],
    ] as const) {
      row(
        `idle 3 s ${label}`,
        `${i.fired} timers fired, ${i.frames} frames, ${i.running} animations`,
        `${i.scheduled} timers scheduled, ${i.pings} heartbeat pings`,
      );
    }
    await page.close();
  }

  // First state painted after connect, in English and in Japanese (each loads its own table chunk meanwhile).
  for (const lang of ['en', 'ja'] as const) {
    const first: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await page.goto(`${server.url}/overlay/${m.id}?lang=${lang}`);
      first.push(await firstPaintMs(page));
      await page.close();
    }
    const fp = medianP95(first);
    row(
      `first state painted after connect, lang=${lang} (${LOADS} loads)`,
      `median ${f1(fp.median)} ms`,
      `p95 ${f1(fp.p95)} ms, max ${f1(Math.max(...first))} ms`,
    );
  }

  // Pushed state painted after the record ack.
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.goto(`${server.url}/overlay/${m.id}?anim=0`);
  await firstPaintMs(page);
  const pushes: number[] = [];
  let misses = 0;
  for (let i = 2; i < 2 + SHOTS; i++) {
    // Every step pots one ball for the player at the table (legalSteps): their score goes up by one.
    const [who, score] = await page.evaluate(() => {
      const p = document.querySelector<HTMLElement>('.panel.at')!.dataset.player as 'A' | 'B';
      return [p, Number(document.querySelector(`[data-f="score-${p}"]`)!.textContent!.replace('\u2212', '-'))] as const;
    });
    const d = await pushPaintMs(page, m, steps[i], `bench-${i}`, who, String(score + 1));
    if (d === null) misses++;
    else pushes.push(d);
  }
  await page.close();
  const pp = medianP95(pushes);
  row(
    `pushed state painted after the record ack (${SHOTS} shots)`,
    `median ${f1(pp.median)} ms`,
    `p95 ${f1(pp.p95)} ms, max ${f1(Math.max(...pushes))} ms${misses ? `, ${misses} never painted` : ''}`,
  );
} finally {
  await browser.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length), ['measure', 'value', 'note'][c]!.length));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(['measure', 'value', 'note']));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
