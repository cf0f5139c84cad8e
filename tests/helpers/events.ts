/**
 * Event helpers for tests: create an event over REST, make matches for its tables, find steps that win a
 * match with the engine, record them, and collect a socket's `table` pushes.
 */
import { expect } from 'vitest';
import { applyStep, newMatch, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { TableState } from '../../shared/protocol/event';
import type { Step } from '../../shared/protocol/steps';
import { api, type Client } from './server';

/** An event with two tables and a four-player roster with flags. */
export const EVENT = {
  name: 'Friday League',
  date: '2026-03-13',
  defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
  theme: { theme: 'dark', accent: 'ff8800' },
  tables: ['Table 1', 'TV table'],
  roster: [
    { name: 'Ann Andersen', short: 'Ann', country: 'DK' },
    { name: 'Bob Brown', country: 'GB-ENG', rating: 612 },
    { name: 'Chen Wei', short: 'Chen', country: 'TW' },
    { name: 'Dora Díaz', country: 'ES' },
  ],
} as const;

export interface CreatedEvent {
  id: string;
  organiserToken: string;
  event: { version: number; tables: { id: string }[]; roster: { id: string }[] };
}

/** `POST /api/events` (throws on a non-201). */
export async function createEvent(url: string, body: unknown = EVENT, headers: { token?: string } = {}): Promise<CreatedEvent> {
  const res = await api(url, '/api/events', { body, ...headers });
  if (res.status !== 201) throw new Error(`create event: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as CreatedEvent;
}

/** A new match for table `table` from roster ids (as next, or current with start) → its id and scorer token. */
export async function tableMatch(
  url: string,
  ev: CreatedEvent,
  table: string,
  playerIds: [string, string],
  start = false,
): Promise<{ id: string; scorerToken: string }> {
  const res = await api(url, `/api/events/${ev.id}/tables/${table}/matches`, { token: ev.organiserToken, body: { playerIds, start } });
  if (res.status !== 201) throw new Error(`table match: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.match as { id: string; scorerToken: string };
}

/**
 * Steps that win a match of `setup` for player A, found with the engine: a legal safety break by A, a miss
 * by B, then A pockets called balls until the target.
 */
export function stepsToWin(setup: unknown): Step[] {
  let m: Match = newMatch(parseSetup(setup));
  const steps: Step[] = [];
  const take = (s: Step) => {
    const r = applyStep(m, s);
    if (!r.ok) throw new Error(`step refused: ${r.error.message}`);
    m = r.match;
    steps.push(s);
  };
  take({ shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } });
  take({ shot: { call: { made: false } } });
  for (let b = 1; m.core.winner === null && b <= 15; b++) take({ shot: { call: { ball: b }, pocketed: [b] } });
  if (m.core.winner === null) throw new Error('no winner after 15 balls');
  return steps;
}

let seq = 0;
/** Record `step` over REST; expects 201. */
export async function recordStep(url: string, match: { id: string; scorerToken: string }, step: Step): Promise<void> {
  const res = await api(url, `/api/matches/${match.id}/steps`, { token: match.scorerToken, body: { stepId: `ev-${process.pid}-${++seq}`, step } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** Collects the `table` pushes a socket receives; `waitFor(pred)` resolves with the first (or a later) one that matches. */
export class TableWatcher {
  readonly pushes: TableState[] = [];
  private waiters: { pred: (t: TableState) => boolean; resolve: (t: TableState) => void }[] = [];
  constructor(socket: Client) {
    socket.on('table', (t) => {
      this.pushes.push(t);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(t)) return true;
        w.resolve(t);
        return false;
      });
    });
  }
  waitFor(pred: (t: TableState) => boolean, what: string, timeoutMs = 10_000): Promise<TableState> {
    const seen = this.pushes.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`no table push ${what}; got ${JSON.stringify(this.pushes.map((p) => [p.current, p.cards.show]))}`)),
        timeoutMs,
      );
      this.waiters.push({ pred, resolve: (s) => (clearTimeout(t), resolve(s)) });
    });
  }
}
