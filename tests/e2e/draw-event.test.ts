/**
 * The event runs itself (issue 27, Done when), end to end on a server over the real Redis and in real headless
 * Chromium: a 16-player double elimination on 4 tables with autopilot, 14-1 races to 1 (short races: three steps a
 * match). The organiser issues each table's scorer token; the test's own scorers record every match to its end
 * with those tokens only — tables 2 to 4 over Socket.IO (one connection per table, the table's token in the
 * handshake), table 1 on its tablet page `/scorer/table/<eventId>/table-1` in Chromium, which follows the table
 * from match to match without a reload (the break comes over the table's socket, the tablet taps the miss and the
 * winning ball). The hall board (`/venue/<eventId>`) follows every table's new match without a reload.
 * Asserted: each draw match played exactly once (one cuecast match each, recorded to its end once), no player on
 * two tables at any time, the champion and the final standings those of the pure draw with the same winners, and
 * the pages still the same documents at the end. The live draw page (`/draw/<eventId>`, opened when the draw is made)
 * follows every result without a reload: at the end it holds all of them, each played match is marked done, and it
 * names the champion.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Failure } from '../../server/failure';
import { champion, standings, type DrawDefinition } from '../../shared/draw/index';
import type { EventView } from '../../shared/protocol/event';
import type { RecordAck } from '../../shared/protocol/wire';
import { chromiumAvailable, launchChromium } from '../helpers/browser';
import { createEvent, stepsToWin, type CreatedEvent } from '../helpers/events';
import { ensureBuilt } from '../helpers/global-setup';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, connect, request, startTestServer, type Client } from '../helpers/server';
import { draw as pureDraw, playOut } from '../draw/play';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();
const TABLES = ['table-1', 'table-2', 'table-3', 'table-4'];
const DEFAULTS = { discipline: '14-1', ruleset: 'nba', targets: [1, 1] } as const;
/** A's legal safety break, B's miss, A pockets the 1: A wins a race to 1. */
const WIN = stepsToWin({ ...DEFAULTS, players: ['A', 'B'] });

describe.skipIf(!hasChromium || !redis.available)('a 16-player double elimination runs itself on 4 tables (Chromium)', () => {
  const prefix = testPrefix('e2e-draw-event');
  let s: RunningServer;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await dropPrefix(redis.url, prefix);
    expect(pageErrors).toEqual([]);
  });

  const open = async (url: string, viewport = { width: 1280, height: 800 }): Promise<Page> => {
    const page = await browser.newPage({ viewport });
    page.on('pageerror', (e) => pageErrors.push(`${url}: ${e.message}`));
    await page.goto(url);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    return page;
  };

  it('every match played once through the table tokens, nobody on two tables, the right champion and standings', { timeout: 150_000 }, async () => {
    const ev: CreatedEvent = await createEvent(s.url, {
      name: 'Autopilot Open',
      date: '2026-05-02',
      defaults: DEFAULTS,
      tables: ['Table 1', 'Table 2', 'Table 3', 'Table 4'],
      roster: Array.from({ length: 16 }, (_, i) => ({ name: `Player ${String(i + 1).padStart(2, '0')}`, rating: 1000 - i * 10 })),
    });
    const tokens = new Map<string, string>();
    for (const table of TABLES) {
      const issued = await api(s.url, `/api/events/${ev.id}/tables/${table}/scorer-token`, { method: 'POST', token: ev.organiserToken });
      expect(issued.status).toBe(201);
      tokens.set(table, issued.body.scorerToken);
    }
    const sockets = new Map<string, Client>();
    for (const table of TABLES) sockets.set(table, await connect(s.url, tokens.get(table)));

    // The pages open before the draw: the tablet waits for its first match; the board shows the empty tables.
    const tablet = await open(`${s.url}/scorer/table/${ev.id}/table-1?lang=en#token=${tokens.get('table-1')}`, { width: 800, height: 1280 });
    const board = await open(`${s.url}/venue/${ev.id}?lang=en`, { width: 1920, height: 1080 });
    await tablet.getByTestId('waiting-next').waitFor();
    expect(new URL(tablet.url()).hash).toBe(''); // the token left the address bar

    const made = await api(s.url, `/api/events/${ev.id}/draw`, {
      token: ev.organiserToken,
      body: { format: 'double', seeding: 'rating', races: { default: 1 }, autopilot: true },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const drawPage = await open(`${s.url}/draw/${ev.id}?lang=en`, { width: 1920, height: 1080 });
    await drawPage.locator('[data-testid="draw-page"] [data-match="W1-1"]').waitFor();
    expect(await drawPage.locator('header.top p.muted').textContent()).toContain('Double elimination · 16 players');

    const recorded = new Map<string, number>(); // cuecast match → steps this test recorded for it
    const tabletMatches: string[] = [];
    let stepSeq = 0;
    const record = async (table: string, matchId: string, step: (typeof WIN)[number]) => {
      const ack = (await request(sockets.get(table)!, 'record', { matchId, stepId: `e2e-${++stepSeq}`, step })) as RecordAck | Failure;
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
      recorded.set(matchId, (recorded.get(matchId) ?? 0) + 1);
    };
    /** The tablet page shows match `matchId` at version `v`, every step sent. */
    const tabletAt = (matchId: string, v: number) =>
      tablet
        .locator(
          `[data-testid="table-scorer"][data-current="${matchId}"] [data-testid="scorer"][data-version="${v}"] [data-testid=status][data-status=live][data-queued="0"]`,
        )
        .waitFor({ timeout: 15_000 });

    for (let guard = 0; ; guard++) {
      expect(guard, 'the event never ended').toBeLessThan(400);
      const view = (await api(s.url, `/api/events/${ev.id}`)).body as EventView;
      const live = view.tables.filter((t) => t.current !== null && view.live[t.current]?.winner === null);
      const players = live.flatMap((t) => view.live[t.current!]!.names);
      expect(new Set(players).size, `a player on two tables: ${players.join(', ')}`).toBe(players.length);
      // The hall board shows each table's match in play (it follows without a reload; a match in play stays until won).
      for (const t of live)
        await board.waitForFunction(
          ([id, cur]) => document.querySelector(`article[data-table="${id}"]`)?.getAttribute('data-current') === cur,
          [t.id, t.current!] as const,
          {
            timeout: 15_000,
          },
        );
      if (live.length === 0) {
        const info = (await api(s.url, `/api/events/${ev.id}/draw`)).body.draw;
        if (info.draw.champion) break;
        await new Promise((r) => setTimeout(r, 50)); // autopilot is placing the next matches
        continue;
      }
      for (const t of live) {
        const matchId = t.current!;
        if (t.id === 'table-1') {
          // The tablet: the break comes over the table's socket; the tablet taps B's miss and A's winning ball.
          tabletMatches.push(matchId);
          await record('table-1', matchId, WIN[0]!);
          await tabletAt(matchId, 1);
          await tablet.getByTestId('miss').click();
          await tabletAt(matchId, 2);
          await tablet.getByTestId('made').click();
          // The win: the table moves on at once (autopilot), so the server is asked rather than the page.
          await expect.poll(async () => (await api(s.url, `/api/matches/${matchId}`)).body.version, { timeout: 15_000 }).toBe(3);
          recorded.set(matchId, (recorded.get(matchId) ?? 0) + 2);
        } else {
          for (const step of WIN) await record(t.id, matchId, step);
        }
      }
    }

    // The draw: done, each match once, the champion and standings of the pure draw with A (the better seed's slot) always winning.
    const info = (await api(s.url, `/api/events/${ev.id}/draw`)).body.draw as { definition: DrawDefinition; draw: import('../../shared/draw/index').DrawView };
    const toPlay = info.draw.matches.filter((m) => m.status !== 'bye' && m.status !== 'void');
    expect(toPlay.every((m) => m.status === 'done')).toBe(true);
    const ids = toPlay.map((m) => m.matchId!);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...recorded.keys()].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(recorded.get(id), id).toBe(3);
      expect((await api(s.url, `/api/matches/${id}`)).body.version, id).toBe(3);
    }
    expect(ids.length).toBe(30); // 15 + 14 + hot seat… the hot seat's holder wins the final: no reset
    const pure = playOut(
      pureDraw(info.definition),
      (r) => r[0]!,
      () => 0,
    ).state;
    expect(info.draw.champion).toBe(champion(pure));
    expect(info.draw.champion).toBe(ev.event.roster[0]!.id); // the top seed wins every match it plays
    expect(info.draw.standings).toEqual(standings(pure));
    expect(info.draw.standings.every((r) => r.place !== null)).toBe(true);

    // The draw page followed every result: it holds them all, shows each played match done and names the champion.
    await drawPage.waitForFunction((n) => Number(document.querySelector('[data-testid="draw-page"]')?.getAttribute('data-entries')) === n, info.draw.entries, {
      timeout: 15_000,
    });
    for (const m of toPlay) expect(await drawPage.locator(`[data-match="${m.id}"]`).first().getAttribute('data-status'), m.id).toBe('done');
    expect(await drawPage.locator('[data-f="champion"] strong').textContent()).toContain('Player 01'); // the top seed (above)

    // The tablet followed table 1 across its matches without a reload and now waits for the next match.
    expect(tabletMatches.length).toBeGreaterThanOrEqual(4);
    await tablet.getByTestId('waiting-next').waitFor();
    for (const p of [tablet, board, drawPage]) expect(await p.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    for (const sock of sockets.values()) sock.close();
    await Promise.all([tablet.close(), board.close(), drawPage.close()]);
  });
});
