/**
 * Data for the migration and backup tests: matches, tournaments with tables, shot clocks and a sponsor's logo,
 * made through the services (so the stores hold what a server writes), and what the services (`served`) or a
 * running server over REST (`servedOver`) give back of all of it, to compare two backends' data as served.
 */
import { expect } from 'vitest';
import { CHECKPOINT_EVERY } from '../../server/matches/live-cache';
import type { Services } from './services';
import { recordOk } from './services';
import { EVENT } from './events';
import type { RunningServer } from '../../server/app';
import { api, LONG_SETUP, plausibleSteps } from './server';

/** A tiny PNG (signature, IHDR 1×1, IDAT, IEND): a logo the sponsors' type check takes. */
export const LOGO = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f3d3b80000000049454e44ae426082',
  'hex',
);

/**
 * Make `matches` matches (every `longEvery`-th one, default 5, long enough for a checkpoint; some with undos; every
 * third with a shot clock that was pressed) and `tournaments` tournaments, each with a match made on its first table, the first one
 * with a sponsor's logo.
 */
export async function fill(s: Services, counts: { matches: number; tournaments: number; longEvery?: number; clocks?: boolean }): Promise<void> {
  for (let i = 0; i < counts.matches; i++) {
    s.clock.advance(1000); // one listing order on every backend (newest first, no ties)
    const m = await s.matches.create({ ...LONG_SETUP, players: [`Player ${i}`, `Rival ${i}`] });
    const n = i % (counts.longEvery ?? 5) === 0 ? CHECKPOINT_EVERY + 7 : 3 + (i % 11);
    for (const step of plausibleSteps(n, LONG_SETUP, { seed: 100 + i, undoRate: 0.05 })) await recordOk(s.matches, m, step);
    if (counts.clocks !== false && i % 3 === 0) {
      expect(await s.shotClocks.configure(m.id, { scorerToken: m.scorerToken }, 'pro')).toMatchObject({ ok: true });
      expect(await s.shotClocks.act(m.id, { scorerToken: m.scorerToken }, 'start')).toMatchObject({ ok: true });
    }
  }
  for (let t = 0; t < counts.tournaments; t++) {
    s.clock.advance(1000);
    const { event, organiserToken } = await s.events.create({ ...EVENT, name: `Open ${t}` });
    const made = await s.events.createTableMatch(event.id, organiserToken, event.tables[0]!.id, { playerIds: ['p1', 'p2'], start: true });
    expect(made.ok).toBe(true);
    if (t === 0) {
      const added = await s.events.addSponsor(
        event.id,
        organiserToken,
        { name: 'Chalk & Co', type: 'image/png', size: LOGO.length, seconds: 8 },
        { type: 'image/png', bytes: LOGO },
      );
      expect(added.ok).toBe(true);
    }
  }
  await s.reactions.settled();
}

/** Everything the services serve of their data: each match (set-up, state, statistics, log, shot clock), each tournament and its logos. */
export async function served(s: Services): Promise<unknown> {
  const matches = await s.matches.list(10_000);
  const out: Record<string, unknown> = {};
  for (const row of matches) {
    const cur = await s.matches.current(row.id);
    const clock = await s.shotClocks.view(row.id);
    out[`match ${row.id}`] = { row, current: cur, log: await s.matches.steps(row.id), clock: clock.ok ? { ...clock, now: null } : clock };
  }
  for (const { id } of await s.events.list(100)) {
    const view = await s.events.view(id);
    const logos = await Promise.all((view?.sponsors ?? []).map(async (sp) => (await s.events.sponsorImage(id, sp.id))?.bytes.toString('hex')));
    out[`tournament ${id}`] = { view, logos };
  }
  return out;
}

/** Drop what depends on the moment or the server's address: clock readings and URLs. */
function timeless(value: unknown, base: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(base, 'BASE'), (k, v: unknown) => (k === 'now' || k === 'remainingMs' ? undefined : v));
}

/** Everything `server` serves of its data over REST: matches (state, log, clock), tournaments and logos. */
export async function servedOver(server: RunningServer): Promise<unknown> {
  const get = async (path: string) => {
    const res = await api(server.url, path);
    expect(res.status, path).toBe(200);
    return res.body;
  };
  const out: Record<string, unknown> = {};
  const { matches } = await get('/api/matches');
  out.matches = matches;
  for (const { id } of matches as { id: string }[])
    out[`match ${id}`] = { match: await get(`/api/matches/${id}`), steps: await get(`/api/matches/${id}/steps`) };
  const { events } = await get('/api/events');
  out.events = events;
  for (const { id } of events as { id: string }[]) {
    const event = await get(`/api/events/${id}`);
    const logos = await Promise.all(
      (event.sponsors ?? []).map(async (s: { id: string }) =>
        Buffer.from(await (await fetch(`${server.url}/api/events/${id}/sponsors/${s.id}/image`)).arrayBuffer()).toString('hex'),
      ),
    );
    out[`event ${id}`] = { event, logos };
  }
  return timeless(out, server.url);
}
