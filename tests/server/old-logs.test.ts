/**
 * Logs recorded under an older rules version, on the real Redis store, the SQLite store and the in-memory store: a match created
 * under rules version 1 whose log holds a step version 2's D-30 input checks refuse (`rail: false` with a ball
 * pocketed) loads — from the log, and in a catch-up of another instance's append — and keeps recording, undos
 * over it included; a new step is judged by the current rules in it too; a version-2 match refuses that step,
 * and a version-2 log holding it does not load (shared/rules/version.ts). A new match notes RULES_VERSION, and
 * a record stored without one (before versions were kept) loads as version 1 with its log, on Redis and on SQLite.
 */
import { pino } from 'pino';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { newMatch, replay, RULES_VERSION, type Step, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { LiveCache } from '../../server/matches/live-cache';
import { MatchService, summaryOf } from '../../server/matches/service';
import type { MatchStore } from '../../server/storage/ports';
import { hashToken } from '../../server/tokens';
import { requireRedis } from '../helpers/redis';
import { legalSteps } from '../helpers/server';
import { services } from '../helpers/services';
import { storeKinds, suiteStore, suiteStores } from '../helpers/stores';

const redis = await requireRedis();
const log = pino({ level: 'silent' });
const kinds = storeKinds(redis.available);
const RAW_SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
const setup = parseSetup(RAW_SETUP);
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
/** Refused since rules version 2 (D-30: "rail": false says no ball dropped); version 1 took it as a made ball. */
const NO_RAIL_POCKETED: Step = { shot: { call: { ball: 3 }, pocketed: [3], rail: false } };
const MISS: Step = { shot: { call: { ball: 5 }, rail: true } };
const TOKEN = 'scorer-token-of-an-old-match';

describe.each(kinds)('a version-1 log on the %s store', (kind) => {
  const fixture = suiteStore(kind, 'old-logs', redis.url);
  let n = 0;

  /** A service (an instance) over the store; `shared`: other instances may append. */
  const service = () => {
    const store = fixture.store;
    return new MatchService({ store, log, shared: true, onAppended: () => undefined, live: new LiveCache({ store, shared: true, log }) });
  };

  /** A match stored as an instance of rules version `rulesVersion` wrote it, with `steps` appended as they were accepted then. */
  async function storedMatch(rulesVersion: number, steps: readonly Step[]): Promise<string> {
    const id = `old-${kind}-${++n}`;
    const at = Date.now();
    const state0 = view(newMatch(setup));
    await fixture.store.create(
      { id, setup, tokenHash: hashToken(TOKEN), createdAt: at, rulesVersion },
      { summary: summaryOf(id, state0, 0, at), state: state0 },
    );
    await appendRaw(id, 0, steps, rulesVersion);
    return id;
  }

  /** Append `steps` from `version` without judging them (what an instance of that rules version accepted). */
  async function appendRaw(id: string, version: number, steps: readonly Step[], rulesVersion: number, all: readonly Step[] = steps): Promise<void> {
    for (const [i, step] of steps.entries()) {
      const v = version + i + 1;
      const state = view(replay(setup, all.slice(0, all.length - steps.length + i + 1), rulesVersion));
      const res = await fixture.store.append(id, v - 1, { stepId: `old${v}`, step, at: Date.now() }, { summary: summaryOf(id, state, v, Date.now()), state });
      expect(res.status).toBe('ok');
    }
  }

  it('loads with the refused step as version 1 took it, keeps recording, and judges a new step by the current rules', async () => {
    const id = await storedMatch(1, [BREAK, NO_RAIL_POCKETED]);
    const svc = service();
    const cur = await svc.current(id);
    expect(cur).toMatchObject({ rulesVersion: 1, snapshot: { version: 2 } });
    expect(cur!.snapshot.state.score).toEqual([0, 1]);
    expect(cur!.snapshot.state).toEqual(view(replay(setup, [BREAK, NO_RAIL_POCKETED], 1)));
    // Recording goes on.
    expect(await svc.record(id, TOKEN, { stepId: 'n3', expectedVersion: 2, step: MISS })).toMatchObject({ ok: true, version: 3 });
    // The same contradiction recorded now is refused: new steps are judged by the rules of today.
    const again = await svc.record(id, TOKEN, { stepId: 'n4', expectedVersion: 3, step: { shot: { call: { ball: 4 }, pocketed: [4], rail: false } } });
    expect(again).toMatchObject({ ok: false, error: { code: 'inconsistent-shot', field: 'step.shot.rail' } });
    // Another instance loads it and undoes back over the old step: the state before it.
    const other = service();
    expect(await other.record(id, TOKEN, { stepId: 'n4', expectedVersion: 3, step: { undo: true } })).toMatchObject({ ok: true, version: 4 });
    const back = await other.record(id, TOKEN, { stepId: 'n5', expectedVersion: 4, step: { undo: true } });
    expect(back).toMatchObject({ ok: true, version: 5 });
    if (back.ok) expect(back.state).toEqual(view(replay(setup, [BREAK])));
  });

  it('catches up with an old step another instance appended meanwhile', async () => {
    const id = await storedMatch(1, [BREAK]);
    const svc = service();
    expect((await svc.current(id))!.snapshot.version).toBe(1);
    // An instance still on rules version 1 (a rolling upgrade) records the contradiction.
    await appendRaw(id, 1, [NO_RAIL_POCKETED], 1, [BREAK, NO_RAIL_POCKETED]);
    const r = await svc.record(id, TOKEN, { stepId: 'c3', step: MISS });
    expect(r).toMatchObject({ ok: true, version: 3 });
    if (r.ok) expect(r.state).toEqual(view(replay(setup, [BREAK, NO_RAIL_POCKETED, MISS], 1)));
  });

  it('a version-2 match refuses the step, and a version-2 log holding it does not load', async () => {
    const svc = service();
    const m = await svc.create(RAW_SETUP);
    expect(m.rulesVersion).toBe(RULES_VERSION);
    expect(await svc.record(m.id, m.scorerToken, { stepId: 'b', step: BREAK })).toMatchObject({ ok: true, version: 1 });
    const refused = await svc.record(m.id, m.scorerToken, { stepId: 'x', step: NO_RAIL_POCKETED });
    expect(refused).toMatchObject({ ok: false, error: { code: 'inconsistent-shot', field: 'step.shot.rail' } });
    expect((await svc.steps(m.id))!.version).toBe(1);
    // A log of rules version 2 with the step (written past the rules: corrupt) is refused as it loads.
    const id = await storedMatch(2, [BREAK]);
    await appendRaw(id, 1, [NO_RAIL_POCKETED], 1, [BREAK, NO_RAIL_POCKETED]);
    await expect(service().current(id)).rejects.toThrow(/does not replay.*step\.shot\.rail/);
  });
});

describe.each(storeKinds(redis.available, ['redis', 'sqlite']))('rules version of a match record on the %s store', (kind) => {
  const fixture = suiteStores(kind, 'rules-version', redis.url);
  const steps = legalSteps(2);

  it('a new match notes RULES_VERSION; a record without one loads as version 1 with its log', async () => {
    const first = services(fixture.ports);
    const created = await first.matches.create({ discipline: '14-1', players: ['Ann', 'Bob'] });
    expect(created).toMatchObject({ rulesVersion: RULES_VERSION });
    await first.matches.record(created.id, created.scorerToken, { stepId: 'a', step: steps[0] });
    expect(await first.matches.current(created.id)).toMatchObject({ snapshot: { version: 1 }, rulesVersion: RULES_VERSION });

    // The record as a version from before rules versions were kept wrote it; then a restart (another instance) loads it.
    let reopened: MatchStore = fixture.store;
    if (kind === 'redis') {
      const client = createClient({ url: redis.url });
      await client.connect();
      expect(await client.hGet(`${fixture.prefix}{m:${created.id}}:meta`, 'rulesVersion')).toBe(String(RULES_VERSION));
      await client.hDel(`${fixture.prefix}{m:${created.id}}:meta`, 'rulesVersion');
      await client.close();
    } else {
      const row = fixture.sqlite!.db.prepare('SELECT record FROM matches WHERE id = ?').get(created.id) as { record: string };
      const record = JSON.parse(row.record) as Record<string, unknown>;
      expect(record.rulesVersion).toBe(RULES_VERSION);
      delete record.rulesVersion;
      fixture.sqlite!.db.prepare('UPDATE matches SET record = ? WHERE id = ?').run(JSON.stringify(record), created.id);
      reopened = (await fixture.reopen()).matches;
    }
    const again = services({ ...fixture.ports, matches: reopened });
    expect(await again.matches.current(created.id)).toMatchObject({ snapshot: { version: 1 }, rulesVersion: 1 });
    // It still records.
    expect(await again.matches.record(created.id, created.scorerToken, { stepId: 'b', step: steps[1] })).toMatchObject({ ok: true, version: 2 });
  });
});
