/**
 * Next matches an event made and took off a table before they started (replaced by another next match, or
 * cleared) are removed from the match store instead of piling up as orphans — unless a step was recorded for
 * them (its shots are kept) or the match was not made by the event (`assign`: it belongs to whoever created
 * it). The services over the in-memory stores (that every store removes a match only while its log is empty is the
 * store-port contract, tests/server/store-port.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { withoutNext } from '../../server/events/event-docs';
import type { EventService } from '../../server/events/service';
import type { MatchService } from '../../server/matches/service';
import { EVENT, stepsToWin } from '../helpers/events';
import { recordOk, services } from '../helpers/services';
import { SETUP } from '../helpers/server';

/** An event with the helper's tables and roster; its id, token, first table and two player pairs. */
async function newEvent(events: EventService) {
  const { event, organiserToken } = await events.create(EVENT);
  const [p1, p2, p3, p4] = event.roster.map((p) => p.id) as [string, string, string, string];
  return {
    id: event.id,
    token: organiserToken,
    table: event.tables[0]!.id,
    pairs: [
      [p1, p2],
      [p3, p4],
    ] as [string, string][],
  };
}

/** Make a match for the table as its next match (or current with `start`). */
async function tableMatch(events: EventService, ev: Awaited<ReturnType<typeof newEvent>>, pair: [string, string], start = false) {
  const made = await events.createTableMatch(ev.id, ev.token, ev.table, { playerIds: pair, start });
  if (!made.ok) throw new Error(JSON.stringify(made.error));
  return made.match;
}

async function exists(matches: MatchService, id: string): Promise<boolean> {
  return (await matches.currentState(id)) !== null;
}

async function listed(matches: MatchService, id: string): Promise<boolean> {
  return (await matches.list(1000)).some((m) => m.id === id);
}

describe('unused next matches', () => {
  const svc = () => services();

  it('removes a made next match replaced by another before it started; the new next match stays', async () => {
    const { events, matches } = svc();
    const ev = await newEvent(events);
    const first = await tableMatch(events, ev, ev.pairs[0]!);
    expect(await listed(matches, first.id)).toBe(true);
    const second = await tableMatch(events, ev, ev.pairs[1]!);
    expect(await exists(matches, first.id)).toBe(false);
    expect(await listed(matches, first.id)).toBe(false);
    expect(await exists(matches, second.id)).toBe(true);
    const view = await events.view(ev.id);
    expect(view!.matches.map((m) => m.id)).toEqual([second.id]);
    expect(view!.tables[0]!.next).toBe(second.id);
  });

  it('removes a made next match cleared from the table', async () => {
    const { events, matches } = svc();
    const ev = await newEvent(events);
    const next = await tableMatch(events, ev, ev.pairs[0]!);
    const cleared = await events.change(ev.id, ev.token, undefined, (d) => withoutNext(d, ev.table));
    expect(cleared.ok).toBe(true);
    expect(await exists(matches, next.id)).toBe(false);
    expect(await listed(matches, next.id)).toBe(false);
  });

  it('keeps a replaced next match with a recorded step (its shots are never lost), and a started match', async () => {
    const { events, matches } = svc();
    const ev = await newEvent(events);
    const current = await tableMatch(events, ev, ev.pairs[0]!, true);
    const next = await tableMatch(events, ev, ev.pairs[1]!);
    const step = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] })[0]!;
    await recordOk(matches, next, step);
    await tableMatch(events, ev, ev.pairs[0]!);
    const kept = await matches.steps(next.id);
    expect(kept?.steps.map((s) => s.step)).toEqual([step]);
    expect(await exists(matches, current.id)).toBe(true);
  });

  it('keeps a match the event did not make (put on the table with assign) when it is replaced', async () => {
    const { events, matches } = svc();
    const ev = await newEvent(events);
    const own = await matches.create(SETUP);
    const assigned = await events.assign(ev.id, ev.token, ev.table, own.id, false);
    expect(assigned.ok).toBe(true);
    await tableMatch(events, ev, ev.pairs[0]!);
    expect(await exists(matches, own.id)).toBe(true);
    expect(await listed(matches, own.id)).toBe(true);
  });

  it('keeps a made match another event lists too', async () => {
    const { events, matches } = svc();
    const ev = await newEvent(events);
    const other = await newEvent(events);
    const next = await tableMatch(events, ev, ev.pairs[0]!);
    expect((await events.assign(other.id, other.token, other.table, next.id, false)).ok).toBe(true);
    await tableMatch(events, ev, ev.pairs[1]!);
    expect(await exists(matches, next.id)).toBe(true);
  });
});
