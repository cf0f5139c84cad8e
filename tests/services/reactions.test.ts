/**
 * The domain's reactions to a recorded step (server/reactions.ts), through the services over the in-memory
 * stores and a fake clock, no sockets: a step on a match that a tournament lists and that has a shot clock is
 * heard by both (its live line to the tournament's room, the clock's next period); a match on no tournament
 * and without a clock is heard by nobody; `settled()` resolves only when every reaction has finished; a step
 * recorded before the listeners are attached starts nothing.
 */
import { describe, expect, it } from 'vitest';
import { StepReactions } from '../../server/reactions';
import type { StatePush } from '../../shared/protocol/wire';
import { EVENT } from '../helpers/events';
import { legalSteps, SETUP } from '../helpers/server';
import { recordOk, services } from '../helpers/services';

describe('reactions to a recorded step', () => {
  it('a match on a tournament table with a shot clock: the tournament gets its live line, the clock opens the next period', async () => {
    const s = services();
    const created = await s.events.create({ ...EVENT, defaults: { ...EVENT.defaults, clock: { preset: 'pro' } } });
    const tableId = created.event.tables[0]!.id;
    const made = await s.events.createTableMatch(created.event.id, created.organiserToken, tableId, {
      playerIds: [created.event.roster[0]!.id, created.event.roster[1]!.id],
      start: true,
    });
    if (!made.ok) throw new Error(JSON.stringify(made));
    const m = made.match;
    expect(await s.shotClocks.view(m.id)).toMatchObject({ ok: true, clock: { status: 'idle', kind: 'break' } });

    const [first] = legalSteps(1);
    await recordOk(s.matches, m, first!);
    await s.reactions.settled();
    expect(s.pushed.live).toEqual([{ eventId: created.event.id, line: expect.objectContaining({ matchId: m.id }) }]);
    expect(await s.shotClocks.view(m.id)).toMatchObject({ ok: true, clock: { status: 'idle', kind: 'first-shot' } });
  });

  it('a match on no tournament and without a clock: nobody hears it, and the step is recorded all the same', async () => {
    const s = services();
    const m = await s.matches.create(SETUP);
    const [first] = legalSteps(1);
    expect(await recordOk(s.matches, m, first!)).toBe(1);
    await s.reactions.settled();
    expect(s.pushed.live).toEqual([]);
    expect(s.pushed.shotClocks).toEqual([]);
    expect(await s.shotClocks.view(m.id)).toMatchObject({ ok: true, clock: null });
  });

  it('settled() waits for every reaction; a step before the listeners are attached starts none', async () => {
    const reactions = new StepReactions();
    const push = { matchId: 'm1', state: {} } as unknown as StatePush;
    reactions.stepRecorded(push); // nobody attached yet: nothing runs, nothing pending
    await reactions.settled();

    const heard: string[] = [];
    let finishTournament!: () => void;
    reactions.attach({
      tournaments: { onMatchStep: (p) => new Promise<void>((ok) => (finishTournament = () => (heard.push(`tournament ${p.matchId}`), ok()))) },
      shotClocks: { onStep: async (matchId) => void heard.push(`clock ${matchId}`) },
    });
    reactions.stepRecorded(push);
    let done = false;
    const settled = reactions.settled().then(() => (done = true));
    await Promise.resolve();
    expect(heard).toEqual(['clock m1']);
    expect(done).toBe(false);
    finishTournament();
    await settled;
    expect(heard).toEqual(['clock m1', 'tournament m1']);
  });
});
