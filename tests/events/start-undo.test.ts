/**
 * Undoing *Start next match* (server/events/event-docs.ts `withStartUndone`), on the pure document changes with
 * the clock passed in: the window of START_UNDO_MS, and the refusals that leave the document as it was.
 */
import { describe, expect, it } from 'vitest';
import { START_UNDO_MS } from '../../shared/protocol/event';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { newEventDoc, refused, withMatchOnTable, withNextStarted, withStartUndone, type Change } from '../../server/events/event-docs';
import type { TournamentDoc } from '../../server/storage/ports';

const setup = (a: string, b: string) => parseSetup({ discipline: '14-1', players: [a, b], targets: [50, 50] });
const T0 = 1_800_000_000_000;

function doc(c: Change): TournamentDoc {
  if (refused(c)) throw new Error(c.error.message);
  return c;
}

/** An event whose TV table has match `a` current and `b` started over it at T0. */
function startedOver(): TournamentDoc {
  let d = doc(newEventDoc('ev1', 'hash', { name: 'Open', date: '2026-03-13', tables: ['TV table', 'Table 2'] }, T0 - 1000));
  d = doc(withMatchOnTable(d, 'tv-table', { id: 'a', setup: setup('Ann', 'Jürgen') }, true, T0 - 900));
  d = doc(withMatchOnTable(d, 'tv-table', { id: 'b', setup: setup('Chen', 'Dora') }, false, T0 - 800));
  return doc(withNextStarted(d, 'tv-table', T0));
}

describe('undo of Start next match', () => {
  it('puts the match taken off back on the table within the window, up to its last millisecond', () => {
    const d = doc(withStartUndone(startedOver(), 'tv-table', T0 + START_UNDO_MS));
    expect(d.tables[0]).toMatchObject({ current: 'a', next: 'b' });
    expect(d.tables[0]!.replaced).toBeUndefined();
    expect(d.matches.find((m) => m.id === 'b')!.startedAt).toBeNull();
    expect(d.matches.find((m) => m.id === 'a')!.startedAt).toBe(T0 - 900);
  });

  it('refuses after the window, naming the table', () => {
    const r = withStartUndone(startedOver(), 'tv-table', T0 + START_UNDO_MS + 1);
    expect(refused(r) && r.error).toMatchObject({ code: 'nothing-to-undo', field: 'table' });
    expect(refused(r) && r.error.message).toContain('5 minutes');
  });

  it('refuses when a next match was assigned since, when the match is on another table, and on an unknown table', () => {
    const withNext = doc(withMatchOnTable(startedOver(), 'tv-table', { id: 'c', setup: setup('Eve', 'Finn') }, false, T0 + 10));
    const r1 = withStartUndone(withNext, 'tv-table', T0 + 20);
    expect(refused(r1) && r1.error).toMatchObject({ code: 'nothing-to-undo', field: 'table' });
    const moved = doc(withMatchOnTable(startedOver(), 'table-2', { id: 'a', setup: setup('Ann', 'Jürgen') }, true, T0 + 10));
    const r2 = withStartUndone(moved, 'tv-table', T0 + 20);
    expect(refused(r2) && r2.error).toMatchObject({ code: 'match-on-table', field: 'table' });
    const r3 = withStartUndone(startedOver(), 'nosuch', T0 + 20);
    expect(refused(r3) && r3.error).toMatchObject({ code: 'not-found', field: 'table' });
  });

  it('has nothing to undo when the table was empty before the start, or after a match was put on directly', () => {
    let d = doc(newEventDoc('ev2', 'hash', { name: 'Open', date: '2026-03-13', tables: ['TV table'] }, T0));
    d = doc(withMatchOnTable(d, 'tv-table', { id: 'a', setup: setup('Ann', 'Jürgen') }, false, T0));
    d = doc(withNextStarted(d, 'tv-table', T0));
    expect(refused(withStartUndone(d, 'tv-table', T0 + 1))).toBe(true);
    const direct = doc(withMatchOnTable(startedOver(), 'tv-table', { id: 'c', setup: setup('Eve', 'Finn') }, true, T0 + 10));
    expect(refused(withStartUndone(direct, 'tv-table', T0 + 20))).toBe(true);
  });
});
