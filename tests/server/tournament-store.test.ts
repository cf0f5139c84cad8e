/**
 * The Redis tournament store's links and listing, which sit outside the event's compare-and-set so every script
 * touches one cluster slot (server/storage/redis-tournament-store.ts), against the real Redis: a match is linked
 * before the save that lists it (so a crash between the two leaves an extra link, never a missing one), an
 * unlink older than the link is ignored, a `stale` save changes no document, and the listing skips a row
 * whose creation never finished. Through the services over the Redis stores: a step of a match linked to an event
 * that does not list it (what a crash between link and save leaves) sends that event no live line; once listed, it does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import type { TournamentDoc } from '../../server/storage/ports';
import { RedisTournamentStore } from '../../server/storage/redis-tournament-store';
import { stepsToWin, EVENT } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { recordOk, services } from '../helpers/services';
import { suiteStores } from '../helpers/stores';

const redis = await requireRedis();

/** A minimal stored event at `version` listing `matches` (on table `t1`). */
function doc(id: string, version: number, matches: string[]): TournamentDoc {
  return {
    id,
    name: 'League',
    date: '2026-03-13',
    defaults: { discipline: '14-1' },
    theme: {},
    tables: [{ id: 't1', name: 'T1', current: null, next: null, cards: { show: null, matchId: null, seq: 0, captionHidden: false, auto: true } }],
    roster: [],
    matches: matches.map((m) => ({ id: m, table: 't1', players: ['A', 'B'], addedAt: 1, startedAt: null })),
    version,
    createdAt: 1,
    updatedAt: 1000 + version,
    tokenHash: 'x',
    nextPlayer: 1,
  } as unknown as TournamentDoc;
}

describe.skipIf(!redis.available)('Redis tournament store: links and listing outside the compare-and-set', () => {
  const prefix = testPrefix('tournament-store');
  const client = createClient({ url: redis.url });
  let store: RedisTournamentStore;

  beforeAll(async () => {
    await client.connect();
    store = new RedisTournamentStore(client, prefix);
  });
  afterAll(async () => {
    await client.close();
    await dropPrefix(redis.url, prefix);
  });

  it('links a match the save lists, unlinks one it drops, and keeps a link made again by a later save', async () => {
    await store.createTournament(doc('e1', 0, []));
    expect(await store.saveTournament(doc('e1', 1, ['m1']), 0, { linked: ['m1'], unlinked: [] })).toEqual({ status: 'ok', version: 1 });
    expect(await store.tournamentsOfMatch('m1')).toEqual(['e1']);
    expect(await store.saveTournament(doc('e1', 2, []), 1, { linked: [], unlinked: ['m1'] })).toEqual({ status: 'ok', version: 2 });
    expect(await store.tournamentsOfMatch('m1')).toEqual([]);
    expect(await store.saveTournament(doc('e1', 3, ['m1']), 2, { linked: ['m1'], unlinked: [] })).toEqual({ status: 'ok', version: 3 });
    // The unlink of version 2 arriving late (another instance was slow) leaves version 3's link alone.
    await (store as unknown as { links(id: string, v: number, m: string[], op: string): Promise<void> }).links('e1', 2, ['m1'], 'unlink');
    expect(await store.tournamentsOfMatch('m1')).toEqual(['e1']);
    // And a late link of an older version does not lower it: the unlink of version 4 still removes it.
    await (store as unknown as { links(id: string, v: number, m: string[], op: string): Promise<void> }).links('e1', 1, ['m1'], 'link');
    expect(await store.saveTournament(doc('e1', 4, []), 3, { linked: [], unlinked: ['m1'] })).toEqual({ status: 'ok', version: 4 });
    expect(await store.tournamentsOfMatch('m1')).toEqual([]);
  });

  it('a stale save changes no document; the link it wrote first stays as an extra (readers check the document)', async () => {
    await store.createTournament(doc('e2', 0, []));
    expect(await store.saveTournament(doc('e2', 1, []), 0, { linked: [], unlinked: [] })).toEqual({ status: 'ok', version: 1 });
    expect(await store.saveTournament(doc('e2', 1, ['m2']), 0, { linked: ['m2'], unlinked: [] })).toEqual({ status: 'stale', version: 1 });
    expect((await store.loadTournament('e2'))!.matches).toEqual([]);
    expect(await store.tournamentsOfMatch('m2')).toEqual(['e2']);
    // Every match a stored event lists is linked; a match linked to several events lists each.
    await store.createTournament(doc('e3', 0, ['m2']));
    expect((await store.tournamentsOfMatch('m2')).sort()).toEqual(['e2', 'e3']);
  });

  it('lists events newest first and skips a row whose creation never finished', async () => {
    await client.zAdd(`${prefix}events`, { score: 9_999_999_999_999, value: 'crashed' });
    const rows = await store.listTournaments(10);
    expect(rows.map((r) => r.id)).toEqual(['e1', 'e2', 'e3']);
    await expect(store.createTournament(doc('e1', 0, []))).rejects.toThrow(/already exists/);
  });

  it('refuses a prefix with a hash tag of its own', () => {
    expect(() => new RedisTournamentStore(client, 'cue{cast}:')).toThrow(/may not contain/);
  });
});

describe.skipIf(!redis.available)('live lines go only to events that list the match', () => {
  const fixture = suiteStores('redis', 'event-links', redis.url);

  it('a link left by a crash before the save sends no live line; once the event lists the match, its steps do', async () => {
    const s = services(fixture.ports);
    const created = await s.events.create(EVENT);
    const ev = { id: created.event.id, organiserToken: created.organiserToken };
    const m = await s.matches.create({ ...EVENT.defaults, players: ['A', 'B'] });
    const lines = s.pushed.live;
    // What a crash between the link and the event's compare-and-set leaves behind.
    const r = createClient({ url: redis.url });
    await r.connect();
    await r.hSet(`${fixture.prefix}{m:${m.id}}:event-links`, ev.id, '1');
    await r.close();
    const win = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });
    await recordOk(s.matches, m, win[0]!);
    const assigned = await s.events.assign(ev.id, ev.organiserToken, 'table-1', m.id, true);
    expect(assigned.ok).toBe(true);
    await recordOk(s.matches, m, win[1]!);
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ eventId: ev.id, line: { matchId: m.id, version: 2 } });
  });
});
