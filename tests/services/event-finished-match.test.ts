/**
 * A match that is already won when it goes on a table (an existing match assigned with `start`, a finished one
 * assigned as next and started, or a next match the scorer finished before the organiser started it): with
 * automatic cards the table's overlay shows its summary, not an intro — an intro of a finished match would stay
 * on air for good, since only a recorded step takes the automatic intro down and a won match takes none but an
 * undo. A match in progress still gets its intro. Service level: the event and match services over the
 * in-memory stores.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Changed } from '../../server/events/service';
import type { Failure } from '../../server/failure';
import { EVENT, stepsToWin } from '../helpers/events';
import { recordOk, services, type Services } from '../helpers/services';

const SETUP = { ...EVENT.defaults, players: ['Eve Ek', 'Fay Fox'] };
const WIN = stepsToWin(SETUP);

describe('a finished match put on a table', () => {
  let s: Services;
  let ev: { id: string; organiserToken: string };
  /** The table after a change (what `POST …/assign` and `…/start` answer as `table`). */
  const tableAfter = async (res: Changed | Failure, tableId: string) => {
    expect(res.ok).toBe(true);
    return s.events.table(ev.id, tableId);
  };
  const table = (id: string) => s.events.table(ev.id, id);
  const won = async () => {
    const m = await s.matches.create(SETUP);
    for (const step of WIN) await recordOk(s.matches, m, step);
    return m;
  };

  beforeAll(async () => {
    s = services();
    const created = await s.events.create(EVENT);
    ev = { id: created.event.id, organiserToken: created.organiserToken };
  });

  it('assigned with start: the automatic card is its summary', async () => {
    const m = await won();
    const res = await s.events.assign(ev.id, ev.organiserToken, 'table-1', m.id, true);
    expect(await tableAfter(res, 'table-1')).toMatchObject({ current: m.id, cards: { show: 'summary', matchId: m.id, shownBy: 'auto' } });
    // An undo of the win takes the automatic summary down, as for a match won on the table.
    await recordOk(s.matches, m, { undo: true });
    await expect.poll(async () => ((await table('table-1')) as { cards: { show: string } }).cards.show).toBe('none');
  });

  it('assigned as next and started, or won while it waited as next: the summary when it starts', async () => {
    const done = await won();
    expect((await s.events.assign(ev.id, ev.organiserToken, 'tv-table', done.id, false)).ok).toBe(true);
    const started = await s.events.start(ev.id, ev.organiserToken, 'tv-table');
    expect(await tableAfter(started, 'tv-table')).toMatchObject({ current: done.id, cards: { show: 'summary', matchId: done.id, shownBy: 'auto' } });

    const waiting = await s.matches.create(SETUP);
    expect((await s.events.assign(ev.id, ev.organiserToken, 'tv-table', waiting.id, false)).ok).toBe(true);
    for (const step of WIN) await recordOk(s.matches, waiting, step); // the scorer played it before it was started
    const next = await s.events.start(ev.id, ev.organiserToken, 'tv-table');
    expect(await tableAfter(next, 'tv-table')).toMatchObject({ current: waiting.id, cards: { show: 'summary', matchId: waiting.id, shownBy: 'auto' } });
  });

  it('a match in progress still gets its intro, and none of this with automatic cards off', async () => {
    // An event of its own: automatic cards go off here, which must not reach the other tests' tables.
    const created = await s.events.create(EVENT);
    const own = { id: created.event.id, organiserToken: created.organiserToken };
    const ownTable = async (res: Changed | Failure) => {
      expect(res.ok).toBe(true);
      return (await s.events.table(own.id, 'table-1')) as { cards: unknown };
    };
    const live = await s.matches.create(SETUP);
    await recordOk(s.matches, live, WIN[0]!);
    const res = await s.events.assign(own.id, own.organiserToken, 'table-1', live.id, true);
    expect((await ownTable(res)).cards).toMatchObject({ show: 'intro', matchId: live.id, shownBy: 'auto' });
    expect((await s.events.cards(own.id, own.organiserToken, 'table-1', 'auto-off')).ok).toBe(true);
    const m = await won();
    const off = await s.events.assign(own.id, own.organiserToken, 'table-1', m.id, true);
    expect((await ownTable(off)).cards).toMatchObject({ show: 'none', auto: false });
  });
});
