/**
 * An organiser's win must fit the match's race (issue 27 §7), through the services over the in-memory stores: the
 * winner's score reaches the race, and past it by no more than the last shot could score (14-1: 15 balls, so at
 * most race + 14; Rotation: 120 points) unless it is what the match's sheet recorded; the loser's does not reach
 * it; refused `invalid-draw` naming `score`, and nothing changes. A walkover or a retirement keeps whatever the
 * scores were. A draw of an event without a default target takes the discipline's race.
 */
import { describe, expect, it } from 'vitest';
import { raceProblem } from '../../shared/draw/state';
import { shotPointsMax } from '../../shared/protocol/limits';
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
      [{ winner: a, score: [20, 3] }, /has 20, past the race to 5 by more than one shot can score \(at most 19\)/],
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

    // A retirement keeps the score as it stood; so does a walkover; a fitting win is taken (past the race by what
    // one 14-1 shot can score: 4 + 15 balls = 19 at most).
    expect((await s.draws.result(ev.id, ev.token, { match: m.id, winner: a, kind: 'retired', score: [2, 4] })).ok).toBe(true);
    const other = made.draw.draw.matches.find((x) => x.id === made.draw.draw.ready[1])!;
    expect((await s.draws.result(ev.id, ev.token, { match: other.id, winner: other.players[1], kind: 'win', score: [-2, 5] })).ok).toBe(true);
    // A correction to a win fits the race too.
    expect(await s.draws.result(ev.id, ev.token, { match: m.id, winner: a, kind: 'win', score: [5, 6] })).toMatchObject({
      ok: false,
      error: { code: 'invalid-draw', field: 'score' },
    });
  });

  it('past the race by at most one shot, or by any amount as the sheet recorded it; by discipline', () => {
    const win = (score: [number, number]) => ({ winner: 'p1', kind: 'win' as const, score });
    const straight = shotPointsMax('14-1');
    const rotation = shotPointsMax('rotation');
    expect([straight, rotation]).toEqual([15, 120]);
    expect(raceProblem(win([101, 67]), 100, ['p1', 'p2'], straight)).toBeNull(); // two balls on the last shot
    expect(raceProblem(win([114, 67]), 100, ['p1', 'p2'], straight)).toBeNull(); // 99 + 15
    expect(raceProblem(win([115, 67]), 100, ['p1', 'p2'], straight)).toMatchObject({ code: 'invalid-draw', field: 'score' });
    expect(raceProblem(win([115, 67]), 100, ['p1', 'p2'], straight, [115, 67])).toBeNull(); // as the sheet recorded it
    expect(raceProblem(win([115, 67]), 100, ['p1', 'p2'], straight, [114, 67])).toMatchObject({ code: 'invalid-draw', field: 'score' });
    expect(raceProblem(win([134, 90]), 120, ['p1', 'p2'], rotation)).toBeNull(); // 119 + the 15
    expect(raceProblem(win([240, 90]), 120, ['p1', 'p2'], rotation)).toMatchObject({ code: 'invalid-draw', field: 'score' });
    expect(raceProblem({ winner: 'p2', kind: 'walkover' }, 5, ['p1', 'p2'], straight)).toBeNull();
    expect(raceProblem({ winner: 'p2', kind: 'retired', score: [9, 1] }, 5, ['p1', 'p2'], straight)).toBeNull();
  });

  it("a draw of an event with no default target takes the discipline's race (14-1: 100)", async () => {
    const s = services();
    const created = await s.events.create({
      name: 'No target',
      date: '2026-03-13',
      defaults: { discipline: '14-1', ruleset: 'nba' },
      tables: ['Table 1'],
      roster: Array.from({ length: 4 }, (_, i) => ({ name: `Player ${i + 1}` })),
    });
    const made = await s.draws.create(created.event.id, created.organiserToken, { format: 'single', seeding: 'order' });
    if (!made.ok) throw new Error(made.error.message);
    expect(made.draw.draw.matches.map((m) => m.race)).toEqual([100, 100, 100]);
  });
});
