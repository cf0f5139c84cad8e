/**
 * A player of the event's draw stays on the roster (issue 27 §7), through the services over the in-memory
 * stores: removing them is refused `player-in-draw` (409) naming `playerId`, the player and why, and changes
 * nothing; a roster player outside the draw is removed as before.
 */
import { describe, expect, it } from 'vitest';
import { services } from '../helpers/services';

describe('removing a roster player', () => {
  it('a player of the draw is refused naming them; a player outside it is removed', async () => {
    const s = services();
    const created = await s.events.create({
      name: 'Roster',
      date: '2026-03-13',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
      tables: ['Table 1'],
      roster: ['Ann', 'Bob', 'Cat', 'Dan'].map((name) => ({ name })),
    });
    const ev = { id: created.event.id, token: created.organiserToken };
    const [p1, p2, p3, p4] = created.event.roster.map((p) => p.id) as [string, string, string, string];
    // Without a draw, anyone may leave.
    expect((await s.events.removePlayer(ev.id, ev.token, p4)).ok).toBe(true);
    expect((await s.draws.create(ev.id, ev.token, { format: 'single', players: [p1, p2, p3] })).ok).toBe(true);
    const version = (await s.events.view(ev.id))!.version;

    const refused = await s.events.removePlayer(ev.id, ev.token, p2);
    expect(refused).toMatchObject({ ok: false, error: { code: 'player-in-draw', field: 'playerId' } });
    expect(refused.ok || refused.error.message).toMatch(/Bob \(p2\) is a player of this event's draw/);
    const view = (await s.events.view(ev.id))!;
    expect(view.version).toBe(version);
    expect(view.roster.map((p) => p.name)).toEqual(['Ann', 'Bob', 'Cat']);

    // The usual refusals stand.
    expect(await s.events.removePlayer(ev.id, ev.token, 'p99')).toMatchObject({ ok: false, error: { code: 'not-found', field: 'playerId' } });
    expect(await s.events.removePlayer(ev.id, undefined, p2)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    // The draw still names every player.
    const draw = await s.draws.get(ev.id);
    expect(draw.ok && draw.draw.definition.players.map((p) => p.id)).toEqual([p1, p2, p3]);
  });
});
