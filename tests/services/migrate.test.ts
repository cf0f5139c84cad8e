/**
 * Moving data between backends through the storage ports (server/migrate.ts), over the in-memory stores: every
 * match (steps with their ids and times, the checkpoint), tournament, shot clock and logo arrives, and services
 * over the target serve the same as over the source; each match is checked by its replay hash; a second run
 * copies nothing; an interrupted copy is completed; a target holding a different match or tournament
 * under a source id is refused, naming each, and nothing is written. (SQLite to Redis through `npm run
 * migrate` and a Redis-mode server: tests/server/migrate.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { memoryBackends } from '../../server/backends';
import { migrate, MigrationConflict, type MigratePorts } from '../../server/migrate';
import type { Stores } from '../../server/services';
import { fill, served } from '../helpers/migrate-fixture';
import { legalSteps, SETUP } from '../helpers/server';
import { recordOk, services } from '../helpers/services';
import { parseArgs } from '../../scripts/migrate';

const portsOf = (store: Stores): MigratePorts => store;

async function filled() {
  const source = services();
  await fill(source, { matches: 8, tournaments: 2, longEvery: 8 });
  return source;
}

describe('migrate between backends (memory to memory)', () => {
  it('copies every match, checkpoint, tournament, shot clock and logo; the target serves the same; a second run copies nothing', async () => {
    const source = await filled();
    const target = memoryBackends().store;
    const lines: string[] = [];
    const first = await migrate(portsOf(source.store), portsOf(target), (l) => lines.push(l));
    expect(first).toMatchObject({
      matches: { copied: 10, resumed: 0, same: 0 },
      tournaments: { copied: 2, same: 0 },
      shotClocks: { copied: 3, same: 0 },
      sponsors: { copied: 1, same: 0 },
      verified: 10,
    });
    expect(lines.join('\n')).toContain('10 of 10 matches replay on the target');
    for (const { id } of await source.store.matches.list(100)) {
      expect(await target.matches.load(id)).toEqual(await source.store.matches.load(id));
      expect((await target.matches.open(id, 0))?.checkpoint).toEqual((await source.store.matches.open(id, 0))?.checkpoint);
    }
    expect(await served(services(target))).toEqual(await served(source));

    const second = await migrate(portsOf(source.store), portsOf(target));
    expect(second).toMatchObject({
      matches: { copied: 0, resumed: 0, same: 10, steps: 0 },
      tournaments: { copied: 0, same: 2 },
      shotClocks: { copied: 0, updated: 0, same: 3 },
      sponsors: { copied: 0, same: 1 },
      verified: 10,
    });
  });

  it('completes a match whose copy was interrupted, and a match recorded on since the last run', async () => {
    const source = services();
    const m = await source.matches.create(SETUP);
    const steps = legalSteps(6);
    for (const step of steps.slice(0, 4)) await recordOk(source.matches, m, step);
    const target = memoryBackends().store;
    await migrate(portsOf(source.store), portsOf(target));
    for (const step of steps.slice(4)) await recordOk(source.matches, m, step);
    const again = await migrate(portsOf(source.store), portsOf(target));
    expect(again.matches).toEqual({ copied: 0, resumed: 1, same: 0, steps: 2 });
    expect(await target.matches.load(m.id)).toEqual(await source.store.matches.load(m.id));
  });

  it('refuses a target holding another match or tournament under a source id, naming each, and writes nothing', async () => {
    const source = await filled();
    const target = services();
    const [a, b] = (await source.store.matches.list(100)).filter((r) => r.version > 0).map((r) => r.id);
    // Another match under the id of a: same id, another set-up. b: the target's log goes another way.
    const srcA = (await source.store.matches.load(a!))!;
    await target.store.matches.create(
      { ...srcA.record, setup: { ...srcA.record.setup, players: ['Zed', 'Yan'] } },
      {
        summary: { id: a!, discipline: '14-1', names: ['Zed', 'Yan'], score: [0, 0], targets: [10_000, 10_000], winner: null, version: 0, updatedAt: 0 },
        state: (await source.matches.current(a!))!.snapshot.state,
      },
    );
    const srcB = (await source.store.matches.load(b!))!;
    await target.store.matches.create(srcB.record, {
      summary: { id: b!, discipline: '14-1', names: ['x', 'y'], score: [0, 0], targets: [10_000, 10_000], winner: null, version: 0, updatedAt: 0 },
      state: (await source.matches.current(b!))!.snapshot.state,
    });
    await target.store.matches.append(
      b!,
      0,
      { ...srcB.steps[0]!, stepId: 'another-step' },
      {
        summary: { id: b!, discipline: '14-1', names: ['x', 'y'], score: [0, 0], targets: [10_000, 10_000], winner: null, version: 1, updatedAt: 0 },
        state: (await source.matches.current(b!))!.snapshot.state,
      },
    );
    const [ev] = await source.store.tournaments.listTournaments(10);
    const doc = (await source.store.tournaments.loadTournament(ev!.id))!;
    await target.store.tournaments.createTournament({ ...doc, name: 'Another tournament' });
    const before = await served(target);

    const refused = migrate(portsOf(source.store), portsOf(target.store));
    await expect(refused).rejects.toBeInstanceOf(MigrationConflict);
    const err = (await refused.catch((e: unknown) => e)) as MigrationConflict;
    expect(err.conflicts).toHaveLength(3);
    expect(err.message).toContain(`match ${a}: another match (its setup differs)`);
    expect(err.message).toContain(`match ${b}: its log differs at version 1`);
    expect(err.message).toContain(`tournament ${ev!.id} ("${doc.name}")`);
    expect(await served(target)).toEqual(before);
    expect(await target.store.matches.list(100)).toHaveLength(2);
  });

  it('the command line: a Redis URL (several: a Cluster) or a DATA_DIR on each side, the prefix the server would use; bad arguments named', () => {
    const dir = process.cwd();
    expect(parseArgs(['--from', dir, '--to', 'redis://127.0.0.1:6379'], {})).toEqual({
      from: { dataDir: dir },
      to: { redis: ['redis://127.0.0.1:6379'], prefix: 'cuecast:' },
    });
    expect(parseArgs([`--from=redis://a:1,redis://b:2`, `--to=${dir}`], { REDIS_PREFIX: 'venue:' })).toEqual({
      from: { redis: ['redis://a:1', 'redis://b:2'], prefix: 'venue:' },
      to: { dataDir: dir },
    });
    expect(parseArgs(['--from', 'redis://a:1', '--to', 'redis://a:1', '--from-prefix', 'old:', '--to-prefix', 'new:'], {})).toMatchObject({
      from: { prefix: 'old:' },
      to: { prefix: 'new:' },
    });
    expect(() => parseArgs(['--from', dir], {})).toThrow('--to is required');
    expect(() => parseArgs(['--from', dir, '--to', dir], {})).toThrow('the same place');
    expect(() => parseArgs(['--from', `${dir}/no-such-dir`, '--to', 'redis://x:1'], {})).toThrow('--from: no directory');
    expect(() => parseArgs(['--from', dir, '--to', 'redis://x:1', '--prefx', 'p'], {})).toThrow('unknown argument "--prefx"');
    expect(() => parseArgs(['--from', dir, '--to'], {})).toThrow('--to needs a value');
  });
});
