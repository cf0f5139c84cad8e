/**
 * An organiser's win must fit the match's race (issue 27 §7), through the services over the in-memory stores: the
 * winner's score reaches the race, not past it (a run past the race happens only at a table, so it is taken only
 * as the match's sheet recorded it), and the loser's does not reach it; refused `invalid-draw` naming `score`,
 * and nothing changes. A walkover or a retirement keeps whatever the scores were.
 */
import { describe, expect, it } from 'vitest';
import { raceProblem } from '../../shared/draw/state';
import { services } from '../helpers/services';

describe("an organiser's result against the race", () => {
  it('a win past the race, short of it, or with the loser at the race is refused naming score; a fitting one is taken', async () => {
    const s = services();
    const created = await s.events.create({
      name: 'Races',
      date: '2026-03-13',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [5, 5] },
      tables: ['Table 1'],
      roster: Array.from({ length: 4 }, (_, i) => ({ name: `Player ${i + 1}`, rating: 900 - i })),
    });
    const ev = { id: created.event.id, token: created.organiserToken };
    const made = await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'rating' });
    if (!made.ok) throw new Error(made.error.message);
    const m = made.draw.draw.matches.find((x) => x.id === made.draw.draw.ready[0])!;
    expect(m.race).toBe(5);
    const [a, b] = m.players as [string, string];
    const cases: [unknown, RegExp][] = [
      [{ winner: a, score: [9, 3] }, /has 9, past the race to 5/],
      [{ winner: a, score: [4, 2] }, /has 4, short of the race to 5/],
      [{ winner: b, score: [3, 4] }, /has 4, short of the race to 5/],
      [{ winner: a, score: [5, 5] }, /loser \(p\d+\) has 5, which reaches the race to 5/],
    ];
    for (const [body, words] of cases) {
      const res = await s.draws.result(ev.id, ev.token, { match: m.id, kind: 'win', ...(body as object) });
      expect(res, JSON.stringify(body)).toMatchObject({ ok: false, error: { code: 'invalid-draw', field: 'score' } });
      expect(res.ok || res.error.message).toMatch(words);
    }
    const still = await s.draws.get(ev.id);
    expect(still.ok && still.draw.version).toBe(made.draw.version);

    // A retirement keeps the score as it stood; so does a walkover; a fitting win is taken.
    expect((await s.draws.result(ev.id, ev.token, { match: m.id, winner: a, kind: 'retired', score: [2, 4] })).ok).toBe(true);
    const other = made.draw.draw.matches.find((x) => x.id === made.draw.draw.ready[1])!;
    expect((await s.draws.result(ev.id, ev.token, { match: other.id, winner: other.players[1], kind: 'win', score: [-2, 5] })).ok).toBe(true);
    // A correction to a win fits the race too.
    expect(await s.draws.result(ev.id, ev.token, { match: m.id, winner: a, kind: 'win', score: [7, 4] })).toMatchObject({
      ok: false,
      error: { code: 'invalid-draw', field: 'score' },
    });
  });

  it('a score past the race is taken as the sheet recorded it (a run past the race at the table)', () => {
    const win = { winner: 'p1', kind: 'win' as const, score: [6, 2] as [number, number] };
    expect(raceProblem(win, 5, ['p1', 'p2'], [6, 2])).toBeNull();
    expect(raceProblem(win, 5, ['p1', 'p2'], [5, 2])).toMatchObject({ code: 'invalid-draw', field: 'score' });
    expect(raceProblem({ winner: 'p2', kind: 'walkover' }, 5, ['p1', 'p2'])).toBeNull();
    expect(raceProblem({ winner: 'p2', kind: 'retired', score: [9, 1] }, 5, ['p1', 'p2'])).toBeNull();
  });
});
