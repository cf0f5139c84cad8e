/**
 * An event's tables through the services (event and match services over the in-memory stores, a fake clock, no
 * sockets): matches made for a table from the roster (countries travel into the set-up), assign / start / clear
 * next and what does not fit, undoing a Start next match, the automatic cards following the steps recorded and
 * the card buttons, and changes only at the expected version. (Moved from tests/server/events.test.ts, which
 * keeps what only REST shows: creation and its refusals, the organiser token over HTTP, roster edits, status
 * codes, a restart of embedded mode.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { withoutNext } from '../../server/events/event-docs';
import type { Changed } from '../../server/events/service';
import type { Failure } from '../../server/failure';
import { EVENT, stepsToWin } from '../helpers/events';
import { recordOk, services, type Services } from '../helpers/services';

const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });

describe('event tables', () => {
  let s: Services;
  let ev: { id: string; organiserToken: string };

  /** A new event with the helper's tables (`table-1`, `tv-table`) and roster (`p1`…`p4`). */
  const newEvent = async () => {
    const created = await s.events.create(EVENT);
    return { id: created.event.id, organiserToken: created.organiserToken };
  };
  /** A new match for `table` from roster ids (as next, or current with start) → its id and scorer token. */
  const tableMatch = async (e: typeof ev, table: string, playerIds: [string, string], start = false) => {
    const made = await s.events.createTableMatch(e.id, e.organiserToken, table, { playerIds, start });
    if (!made.ok) throw new Error(`table match: ${JSON.stringify(made.error)}`);
    return made.match;
  };
  const ok = (c: Changed | Failure): Changed => {
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    return c;
  };
  const table = async (e: typeof ev, id: string) => s.events.table(e.id, id);

  beforeAll(async () => {
    s = services();
    ev = await newEvent();
  });

  it('makes matches for a table from the roster, assigns and starts the next one, and refuses what does not fit', async () => {
    const m1 = await tableMatch(ev, 'table-1', ['p1', 'p2'], true);
    const got = await s.matches.current(m1.id);
    expect(got!.setup).toMatchObject({ players: ['Ann Andersen', 'Bob Brown'], countries: ['DK', 'GB-ENG'], targets: [3, 3], ruleset: 'nba' });
    // An existing match (made elsewhere) assigned as the next one.
    const m2 = await s.matches.create({ discipline: 'rotation', players: ['Chen Wei', 'Dora Díaz'], countries: ['TW', 'ES'] });
    ok(await s.events.assign(ev.id, ev.organiserToken, 'table-1', m2.id, false));
    expect(await table(ev, 'table-1')).toMatchObject({ current: m1.id, next: m2.id, nextPlayers: ['Chen Wei', 'Dora Díaz'] });
    expect(await s.events.assign(ev.id, ev.organiserToken, 'tv-table', m2.id, false)).toMatchObject({
      ok: false,
      error: { code: 'match-on-table', field: 'matchId' },
    });
    expect(await s.events.assign(ev.id, ev.organiserToken, 'tv-table', 'nosuchmatch', false)).toMatchObject({
      ok: false,
      error: { code: 'not-found', field: 'matchId' },
    });
    expect(await s.events.assign(ev.id, ev.organiserToken, 'nosuch', m1.id, false)).toMatchObject({ ok: false, error: { code: 'not-found', field: 'table' } });
    expect(await s.events.start(ev.id, ev.organiserToken, 'tv-table')).toMatchObject({ ok: false, error: { code: 'no-next-match', field: 'table' } });
    await expect(s.events.createTableMatch(ev.id, ev.organiserToken, 'tv-table', { playerIds: ['p1', 'p1'] })).rejects.toMatchObject({
      code: 'invalid-event',
      field: 'playerIds.1',
    });
    await expect(
      s.events.createTableMatch(ev.id, ev.organiserToken, 'tv-table', { playerIds: ['p1', 'p3'], setup: { targets: [0, 5] } }),
    ).rejects.toMatchObject({ code: 'invalid-setup', field: 'setup.targets.0' });
    ok(await s.events.start(ev.id, ev.organiserToken, 'table-1'));
    expect(await table(ev, 'table-1')).toMatchObject({ current: m2.id, next: null, cards: { show: 'intro', matchId: m2.id, shownBy: 'auto' } });
    const view = (await s.events.view(ev.id))!;
    expect(view.matches.map((m) => [m.id, m.startedAt !== null])).toEqual([
      [m1.id, true],
      [m2.id, true],
    ]);
    expect(view.live[m2.id]).toMatchObject({ names: ['Chen Wei', 'Dora Díaz'], score: [0, 0], targets: [120, 120] });
    // A next match replaced before it started leaves the event; clearing the next one too.
    const q1 = await tableMatch(ev, 'tv-table', ['p1', 'p4']);
    const q2 = await tableMatch(ev, 'tv-table', ['p2', 'p3']);
    let ids = (await s.events.view(ev.id))!.matches.map((m) => m.id);
    expect(ids).toContain(q2.id);
    expect(ids).not.toContain(q1.id);
    const cleared = ok(await s.events.change(ev.id, ev.organiserToken, undefined, (d) => withoutNext(d, 'tv-table')));
    expect(cleared.event.tables.find((t) => t.id === 'tv-table')!.next).toBeNull();
    ids = cleared.event.matches.map((m) => m.id);
    expect(ids).not.toContain(q2.id);
  });

  it('undoes a Start next match: the match it took off unfinished is back on the table, the started one next again; only once', async () => {
    const ev2 = await newEvent();
    const a = await tableMatch(ev2, 'tv-table', ['p1', 'p2'], true);
    await recordOk(s.matches, a, WIN[0]!);
    const b = await tableMatch(ev2, 'tv-table', ['p3', 'p4']);
    expect(await s.events.undoStart(ev2.id, ev2.organiserToken, 'tv-table')).toMatchObject({ ok: false, error: { code: 'nothing-to-undo', field: 'table' } });
    const started = ok(await s.events.start(ev2.id, ev2.organiserToken, 'tv-table'));
    expect(await table(ev2, 'tv-table')).toMatchObject({ current: b.id, next: null });
    expect(started.event.tables.find((t) => t.id === 'tv-table')!.replaced).toMatchObject({ matchId: a.id });
    expect(await s.events.undoStart(ev2.id, undefined, 'tv-table')).toMatchObject({ ok: false, error: { code: 'unauthorized', field: 'token' } });
    ok(await s.events.undoStart(ev2.id, ev2.organiserToken, 'tv-table'));
    expect(await table(ev2, 'tv-table')).toMatchObject({ current: a.id, next: b.id, nextPlayers: ['Chen Wei', 'Dora Díaz'], cards: { show: 'none' } });
    const view = (await s.events.view(ev2.id))!;
    expect(view.tables.find((t) => t.id === 'tv-table')!.replaced).toBeUndefined();
    expect(view.matches.find((m) => m.id === b.id)!.startedAt).toBeNull();
    expect(view.live[a.id]!.score).toEqual((await s.matches.currentState(a.id))!.state.score);
    // Once: a second undo finds nothing to undo, and nothing changed.
    expect(await s.events.undoStart(ev2.id, ev2.organiserToken, 'tv-table')).toMatchObject({ ok: false, error: { code: 'nothing-to-undo', field: 'table' } });
    expect((await s.events.view(ev2.id))!.version).toBe(view.version);
  });

  it('shows the intro when a match starts, takes it down at the first step, shows the summary at the win, and obeys the card buttons', async () => {
    const m = await tableMatch(ev, 'tv-table', ['p3', 'p4'], true);
    const cards = async () => {
      const t = await table(ev, 'tv-table');
      if ('ok' in t) throw new Error(JSON.stringify(t.error));
      return t.cards;
    };
    expect(await cards()).toMatchObject({ show: 'intro', matchId: m.id, shownBy: 'auto' });
    await recordOk(s.matches, m, WIN[0]!);
    await s.reactions.settled();
    expect((await cards()).show).toBe('none');
    for (const step of WIN.slice(1)) await recordOk(s.matches, m, step);
    await s.reactions.settled();
    expect(await cards()).toMatchObject({ show: 'summary', matchId: m.id, shownBy: 'auto' });
    // Undo takes the win back: the automatic summary leaves.
    await recordOk(s.matches, m, { undo: true });
    await s.reactions.settled();
    expect((await cards()).show).toBe('none');
    // The buttons.
    const press = async (action: 'intro' | 'toggle-intro' | 'toggle-summary' | 'caption-toggle' | 'caption-show' | 'auto-off' | 'hide') => {
      ok(await s.events.cards(ev.id, ev.organiserToken, 'tv-table', action));
      return cards();
    };
    expect(await press('intro')).toMatchObject({ show: 'intro', shownBy: 'organiser' });
    expect((await press('toggle-intro')).show).toBe('none');
    expect((await press('toggle-summary')).show).toBe('summary');
    expect((await press('caption-toggle')).captionHidden).toBe(true);
    expect((await press('caption-show')).captionHidden).toBe(false);
    expect((await press('auto-off')).auto).toBe(false);
    expect((await press('hide')).show).toBe('none');
    // With automatic cards off, the win shows nothing by itself.
    await recordOk(s.matches, m, WIN.at(-1)!);
    await s.reactions.settled();
    expect((await cards()).show).toBe('none');
  });

  it('applies a change only at the expected version (stale with currentVersion otherwise)', async () => {
    const { version } = (await s.events.view(ev.id))!;
    const done = ok(await s.events.change(ev.id, ev.organiserToken, version, (d) => ({ ...d, name: 'Friday League (final)' })));
    expect(done.event.version).toBe(version + 1);
    const late = await s.events.change(ev.id, ev.organiserToken, version, (d) => ({ ...d, name: 'Other' }));
    expect(late).toMatchObject({ ok: false, error: { code: 'stale', field: 'expectedVersion' }, currentVersion: version + 1 });
    expect((await s.events.view(ev.id))!.name).toBe('Friday League (final)');
  });
});
