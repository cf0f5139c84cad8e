/**
 * Every draw operation that names a table refuses a table the event does not have (issue 27 §7), through the
 * services over the in-memory stores: a pin, a hold, a swap and the TV table of a new draw answer `invalid-draw`
 * (400) naming the field and listing the event's tables, and change nothing; a table in the address (a table
 * scorer token) answers `not-found` naming `table`, listing them too.
 */
import { describe, expect, it } from 'vitest';
import { services, type Services } from '../helpers/services';

async function eventOf(s: Services) {
  const created = await s.events.create({
    name: 'Tables',
    date: '2026-03-13',
    defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
    tables: ['Table 1', 'TV table'],
    roster: Array.from({ length: 4 }, (_, i) => ({ name: `Player ${i + 1}`, rating: 900 - i })),
  });
  return { id: created.event.id, token: created.organiserToken };
}

const LISTED = /\(tables: table-1, tv-table\)/;

describe('an unknown table named to the draw', () => {
  it('a pin, a hold and a swap are refused naming the field and listing the tables; nothing changes', async () => {
    const s = services();
    const ev = await eventOf(s);
    const made = await s.draws.create(ev.id, ev.token, { format: 'single', seeding: 'rating' });
    if (!made.ok) throw new Error(made.error.message);
    const before = made.draw;
    const match = before.draw.ready[0]!;

    const refusals = [
      [await s.draws.pin(ev.id, ev.token, { match, table: 'nope' }), 'table'],
      [await s.draws.hold(ev.id, ev.token, { table: 'nope', held: true }), 'table'],
      [await s.draws.swap(ev.id, ev.token, { tables: ['nope', 'table-1'] }), 'tables.0'],
      [await s.draws.swap(ev.id, ev.token, { tables: ['table-1', 'nope'] }), 'tables.1'],
    ] as const;
    for (const [res, field] of refusals) {
      expect(res).toMatchObject({ ok: false, error: { code: 'invalid-draw', field } });
      expect(res.ok || res.error.message).toMatch(LISTED);
      expect(res.ok || res.error.message).toMatch(/no table "nope"/);
    }
    const after = await s.draws.get(ev.id);
    expect(after.ok && after.draw.version).toBe(before.version);
    expect(after.ok && after.draw.settings).toEqual(before.settings);

    // A known table is pinned, and unpinned with null.
    const pinned = await s.draws.pin(ev.id, ev.token, { match, table: 'tv-table' });
    expect(pinned.ok && pinned.draw.settings.pins).toEqual({ [match]: 'tv-table' });
    const unpinned = await s.draws.pin(ev.id, ev.token, { match, table: null });
    expect(unpinned.ok && unpinned.draw.settings.pins).toEqual({});
  });

  it('the TV table of a new draw, and a table scorer token for an unknown table', async () => {
    const s = services();
    const ev = await eventOf(s);
    const tv = await s.draws.create(ev.id, ev.token, { format: 'single', tvTable: 'nope' });
    expect(tv).toMatchObject({ ok: false, error: { code: 'invalid-draw', field: 'tvTable' } });
    expect(tv.ok || tv.error.message).toMatch(LISTED);
    expect((await s.draws.get(ev.id)).ok).toBe(false);
    const token = await s.events.issueTableToken(ev.id, ev.token, 'nope');
    expect(token).toMatchObject({ ok: false, error: { code: 'not-found', field: 'table' } });
    expect(token.ok || token.error.message).toMatch(LISTED);
  });
});
