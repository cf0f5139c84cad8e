/**
 * Creating matches and recording steps through the match service (in-memory store, fake clock, no sockets):
 * - a match opened by player B (`breaker: B`): B is at the table and scores the first shot; the default stays A
 *   and anything but A or B is refused naming the field;
 * - rules refusals carry the engine's code and field and change nothing; a refused eventId is not burnt.
 * How REST and Socket.IO carry these answers is tests/server/http.test.ts and malformed.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { RulesError } from '../../shared/index';
import { legalSteps, SETUP } from '../helpers/server';
import { services } from '../helpers/services';

const steps = legalSteps(3);

describe('match service: create and record', () => {
  it('creates a match opened by player B (breaker: B): B is at the table and scores the first shot', async () => {
    const { matches } = services();
    const setup = { discipline: '14-1', players: ['Ann', 'Bob'], breaker: 'B', targets: [50, 50] };
    const created = await matches.create(setup);
    expect(created).toMatchObject({ setup: { breaker: 'B' }, snapshot: { state: { turn: 'B', score: [0, 0] } } });
    expect(await matches.current(created.id)).toMatchObject({ setup: { breaker: 'B' }, snapshot: { state: { turn: 'B' } } });
    const first = legalSteps(1, setup)[0];
    expect(first).toEqual({ shot: { call: { ball: 1 }, pocketed: [1] } });
    const rec = await matches.record(created.id, created.scorerToken, { eventId: 'b1', step: first });
    expect(rec).toMatchObject({ ok: true, version: 1, state: { score: [0, 1], turn: 'B' } });
    // The default stays A; anything but A or B is refused.
    expect(await matches.create(SETUP)).toMatchObject({ setup: { breaker: 'A' }, snapshot: { state: { turn: 'A' } } });
    const refused = await matches.create({ ...setup, breaker: 'C' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RulesError);
    expect((refused as RulesError).toJSON()).toMatchObject({ code: 'invalid-setup', field: 'setup.breaker' });
  });

  it('rules refusals carry the engine code and change nothing', async () => {
    const { matches } = services();
    const fresh = await matches.create(SETUP);
    const record = (eventId: string, step: unknown) => matches.record(fresh.id, fresh.scorerToken, { eventId, step });
    expect(await record('u', { undo: true })).toMatchObject({ ok: false, error: { code: 'nothing-to-undo', field: 'undo' } });
    const choice = await record('c', { choice: 'accept' });
    expect(choice).toMatchObject({ ok: false, error: { code: 'no-choice-pending' } });
    expect((await matches.currentState(fresh.id))!.version).toBe(0);
    // The refused eventIds are not burnt: the same id may carry a legal step afterwards.
    expect(await record('u', steps[0])).toMatchObject({ ok: true, version: 1 });
  });
});
