/**
 * A match that is already won when it goes on a table (an existing match assigned with `start`, a finished one
 * assigned as next and started, or a next match the scorer finished before the organiser started it): with
 * automatic cards the table's overlay shows its summary, not an intro — an intro of a finished match would stay
 * on air for good, since only a recorded step takes the automatic intro down and a won match takes none but an
 * undo. A match in progress still gets its intro. Embedded file store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createEvent, EVENT, recordStep, stepsToWin, type CreatedEvent } from '../helpers/events';
import { api, createMatch, startTestServer, tempDirs } from '../helpers/server';

const dirs = tempDirs();
const SETUP = { ...EVENT.defaults, players: ['Eve Ek', 'Fay Fox'] };
const WIN = stepsToWin(SETUP);

describe('a finished match put on a table', () => {
  let s: RunningServer;
  let ev: CreatedEvent;
  const as = (body: unknown = {}) => ({ token: ev.organiserToken, body });
  const table = async (id: string) => (await api(s.url, `/api/events/${ev.id}/tables/${id}`)).body;
  const won = async () => {
    const m = await createMatch(s.url, SETUP);
    for (const step of WIN) await recordStep(s.url, m, step);
    return m;
  };

  beforeAll(async () => {
    s = await startTestServer({ dataDir: dirs('finished') });
    ev = await createEvent(s.url);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('assigned with start: the automatic card is its summary', async () => {
    const m = await won();
    const res = await api(s.url, `/api/events/${ev.id}/tables/table-1/assign`, as({ matchId: m.id, start: true }));
    expect(res.status).toBe(200);
    expect(res.body.table).toMatchObject({ current: m.id, cards: { show: 'summary', matchId: m.id, shownBy: 'auto' } });
    // An undo of the win takes the automatic summary down, as for a match won on the table.
    await recordStep(s.url, m, { undo: true });
    await expect.poll(async () => (await table('table-1')).cards.show).toBe('none');
  });

  it('assigned as next and started, or won while it waited as next: the summary when it starts', async () => {
    const done = await won();
    expect((await api(s.url, `/api/events/${ev.id}/tables/tv-table/assign`, as({ matchId: done.id }))).status).toBe(200);
    const started = await api(s.url, `/api/events/${ev.id}/tables/tv-table/start`, as());
    expect(started.body.table).toMatchObject({ current: done.id, cards: { show: 'summary', matchId: done.id, shownBy: 'auto' } });

    const waiting = await createMatch(s.url, SETUP);
    expect((await api(s.url, `/api/events/${ev.id}/tables/tv-table/assign`, as({ matchId: waiting.id }))).status).toBe(200);
    for (const step of WIN) await recordStep(s.url, waiting, step); // the scorer played it before it was started
    const next = await api(s.url, `/api/events/${ev.id}/tables/tv-table/start`, as());
    expect(next.body.table).toMatchObject({ current: waiting.id, cards: { show: 'summary', matchId: waiting.id, shownBy: 'auto' } });
  });

  it('a match in progress still gets its intro, and none of this with automatic cards off', async () => {
    const live = await createMatch(s.url, SETUP);
    await recordStep(s.url, live, WIN[0]!);
    const res = await api(s.url, `/api/events/${ev.id}/tables/table-1/assign`, as({ matchId: live.id, start: true }));
    expect(res.body.table.cards).toMatchObject({ show: 'intro', matchId: live.id, shownBy: 'auto' });
    expect((await api(s.url, `/api/events/${ev.id}/tables/table-1/cards/auto-off`, as())).status).toBe(200);
    const m = await won();
    const off = await api(s.url, `/api/events/${ev.id}/tables/table-1/assign`, as({ matchId: m.id, start: true }));
    expect(off.body.table.cards).toMatchObject({ show: 'none', auto: false });
  });
});
