/**
 * Each roster player's name is different (trimmed, case-insensitive; issue 27 §7), through the services over the
 * in-memory stores: an event made with a name twice, a player added under a name already on the roster (or
 * twice in one request), and a rename to another player's name are refused `invalid-event` naming the field;
 * a roster CSV with a name twice is refused naming the row; importing a CSV skips the rows whose names are on the
 * roster already and says how many (a file imported twice adds nobody twice).
 */
import { describe, expect, it } from 'vitest';
import { withPlayerPatch, withPlayers } from '../../server/events/event-docs';
import { parseRosterCsv } from '../../server/events/roster-csv';
import { RulesError } from '../../shared/protocol/errors';
import { services, type Services } from '../helpers/services';

const EVENT = { name: 'Names', date: '2026-03-13', tables: ['Table 1'] };

async function eventOf(s: Services, roster: { name: string }[] = [{ name: 'Ann Andersen' }, { name: 'Bob Brown' }]) {
  const created = await s.events.create({ ...EVENT, roster });
  return { id: created.event.id, token: created.organiserToken };
}

function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    if (err instanceof RulesError) return err.toJSON();
    throw err;
  }
  return null;
}

describe('duplicate player names', () => {
  it('an event made with a name twice is refused naming the second', async () => {
    const s = services();
    await expect(s.events.create({ ...EVENT, roster: [{ name: 'Ann' }, { name: 'Bob' }, { name: ' ANN ' }] })).rejects.toMatchObject({
      code: 'invalid-event',
      field: 'roster.2.name',
    });
  });

  it('adding a name already on the roster, or twice at once, and renaming to another player’s name are refused; nothing changes', async () => {
    const s = services();
    const ev = await eventOf(s);
    const version = (await s.events.view(ev.id))!.version;
    const add = (names: string[]) =>
      s.events.change(ev.id, ev.token, undefined, (d) =>
        withPlayers(
          d,
          names.map((name) => ({ name })),
        ),
      );
    const taken = await add(['Cat', '  ann andersen ']);
    expect(taken).toMatchObject({ ok: false, error: { code: 'invalid-event', field: 'players.1.name' } });
    expect(taken.ok || taken.error.message).toMatch(/already on the roster \(p1\)/);
    expect(await add(['Cat', 'CAT'])).toMatchObject({ ok: false, error: { code: 'invalid-event', field: 'players.1.name' } });
    const rename = await s.events.change(ev.id, ev.token, undefined, (d) => withPlayerPatch(d, 'p2', { name: 'ANN ANDERSEN' }));
    expect(rename).toMatchObject({ ok: false, error: { code: 'invalid-event', field: 'name' } });
    const view = (await s.events.view(ev.id))!;
    expect(view.version).toBe(version);
    expect(view.roster.map((p) => p.name)).toEqual(['Ann Andersen', 'Bob Brown']);
    // A player may keep (or re-case) their own name; a new name is added.
    expect((await s.events.change(ev.id, ev.token, undefined, (d) => withPlayerPatch(d, 'p2', { name: 'Bob BROWN' }))).ok).toBe(true);
    expect((await add(['Cat'])).ok).toBe(true);
  });

  it('a roster CSV with a name twice is refused naming the row; nothing is imported', () => {
    expect(refusal(() => parseRosterCsv('name,rating\nAnn,600\nBob,500\n ann ,400'))).toMatchObject({ code: 'invalid-roster', field: 'rows.4.name' });
  });

  it('a CSV imported twice: the second import skips every row and says so; a mixed file adds only the new names', async () => {
    const s = services();
    const ev = await eventOf(s, []);
    const csv = 'name,country\nAnn Andersen,DK\nBob Brown,GB-ENG\nChen Wei,TW';
    const first = await s.events.importPlayers(ev.id, ev.token, parseRosterCsv(csv));
    expect(first).toMatchObject({ ok: true, imported: 3, skipped: 0 });
    const version = (await s.events.view(ev.id))!.version;
    const second = await s.events.importPlayers(ev.id, ev.token, parseRosterCsv(csv));
    expect(second).toMatchObject({ ok: true, imported: 0, skipped: 3 });
    expect((await s.events.view(ev.id))!.version).toBe(version);
    const mixed = await s.events.importPlayers(ev.id, ev.token, parseRosterCsv('BOB BROWN\nDora Díaz'));
    expect(mixed).toMatchObject({ ok: true, imported: 1, skipped: 1 });
    expect((await s.events.view(ev.id))!.roster.map((p) => p.name)).toEqual(['Ann Andersen', 'Bob Brown', 'Chen Wei', 'Dora Díaz']);
  });
});
