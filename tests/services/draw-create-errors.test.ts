/**
 * A draw that cannot be made says why first (issue 27 §7), through the services over the in-memory stores: too few
 * players is said before anything else (even a missing race), and a group format without its group size (or,
 * groups then knockout, without how many go on) says that the field is needed, not "got undefined".
 */
import { describe, expect, it } from 'vitest';
import { services } from '../helpers/services';

async function eventOf(players: number, targets?: [number, number]) {
  const s = services();
  const created = await s.events.create({
    name: 'Errors',
    date: '2026-03-13',
    defaults: { discipline: '14-1', ruleset: 'nba', ...(targets ? { targets } : {}) },
    tables: ['Table 1'],
    roster: Array.from({ length: players }, (_, i) => ({ name: `Player ${i + 1}` })),
  });
  return { s, id: created.event.id, token: created.organiserToken, players: created.event.roster.map((p) => p.id) };
}

describe('draw creation errors', () => {
  it('a 1-player draw is refused for its players, before the race (none in the defaults)', async () => {
    const ev = await eventOf(1);
    for (const body of [{ format: 'single' }, { format: 'single', players: ev.players }]) {
      const res = await ev.s.draws.create(ev.id, ev.token, body);
      expect(res, JSON.stringify(body)).toMatchObject({ ok: false, error: { code: 'invalid-draw', field: 'players' } });
      expect(res.ok || res.error.message).toMatch(/at least 2 players, got 1/);
    }
  });

  it('round robin and groups then knockout without their group fields say the field is needed', async () => {
    const ev = await eventOf(8, [3, 3]);
    const rr = await ev.s.draws.create(ev.id, ev.token, { format: 'round-robin' });
    expect(rr).toMatchObject({ ok: false, error: { code: 'invalid-draw', field: 'groupSize' } });
    expect(rr.ok || rr.error.message).toMatch(/round robin needs players per group/);
    expect(rr.ok || rr.error.message).not.toMatch(/undefined/);
    const gk = await ev.s.draws.create(ev.id, ev.token, { format: 'groups-knockout', groupSize: 4 });
    expect(gk).toMatchObject({ ok: false, error: { code: 'invalid-draw', field: 'advance' } });
    expect(gk.ok || gk.error.message).toMatch(/needs how many go on from each group/);
    expect(gk.ok || gk.error.message).not.toMatch(/undefined/);
    expect((await ev.s.draws.get(ev.id)).ok).toBe(false);
    expect((await ev.s.draws.create(ev.id, ev.token, { format: 'round-robin', groupSize: 4 })).ok).toBe(true);
  });

  it('an option of another format is refused naming it, not stored and ignored; the options of the format are taken', async () => {
    const ev = await eventOf(8, [3, 3]);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ format: 'single', groupSize: 4 }, 'groupSize', /groupSize: not an option of single elimination \(it is for round robin and groups then knockout\)/],
      [{ format: 'single', trueDouble: true }, 'trueDouble', /not an option of single elimination/],
      [{ format: 'double', advance: 2 }, 'advance', /not an option of double elimination/],
      [{ format: 'round-robin', groupSize: 4, trueDouble: false }, 'trueDouble', /not an option of round robin/],
      [{ format: 'round-robin', groupSize: 4, knockout: 'double' }, 'knockout', /not an option of round robin/],
      [{ format: 'groups-knockout', groupSize: 4, advance: 2, trueDouble: true }, 'trueDouble', /for a double elimination knockout/],
    ];
    for (const [body, field, words] of cases) {
      const res = await ev.s.draws.create(ev.id, ev.token, body);
      expect(res, JSON.stringify(body)).toMatchObject({ ok: false, error: { code: 'invalid-draw', field } });
      expect(res.ok || res.error.message).toMatch(words);
    }
    expect((await ev.s.draws.get(ev.id)).ok).toBe(false);
    const made = await ev.s.draws.create(ev.id, ev.token, { format: 'groups-knockout', groupSize: 4, advance: 2, knockout: 'double', trueDouble: true });
    expect(made.ok).toBe(true);
    expect(made.ok && made.draw.draw.matches.some((m) => m.id === 'FR')).toBe(true);
  });
});
