/**
 * The embedded file store on its own: compare-and-append, stepId dedupe, and a torn last line (a crash in
 * the middle of a write, never acknowledged) cut off on the next open without losing the lines before it;
 * checkpoints and the newest part of the log (`open`); idle logs closed and opened again.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newMatch, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { summaryOf } from '../../server/matches/service';
import { FileStore } from '../../server/storage/file-store';
import { legalSteps, SETUP } from '../helpers/server';

const dir = mkdtempSync(join(tmpdir(), 'cuecast-filestore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const setup = parseSetup(SETUP);
const state = view(newMatch(setup));
const snap = (version: number) => ({ summary: summaryOf('m1', state, version, 1000 + version), state });
const steps = legalSteps(4);

describe('FileStore', () => {
  it('appends only at the expected version, dedupes stepIds, and survives a torn last line', async () => {
    const store = new FileStore(dir);
    await store.init();
    await store.create({ id: 'm1', setup, tokenHash: 'ab'.repeat(32), createdAt: 1, rulesVersion: 1 }, snap(0));
    expect(await store.append('m1', 0, { stepId: 'a', step: steps[0]!, at: 1 }, snap(1))).toEqual({ status: 'ok', version: 1 });
    expect(await store.append('m1', 0, { stepId: 'b', step: steps[1]!, at: 2 }, snap(1))).toEqual({ status: 'stale', version: 1 });
    expect(await store.append('m1', 1, { stepId: 'a', step: steps[1]!, at: 2 }, snap(1))).toEqual({ status: 'duplicate', version: 1 });
    expect(await store.append('m1', 1, { stepId: 'b', step: steps[1]!, at: 3 }, snap(2))).toEqual({ status: 'ok', version: 2 });
    await store.close();

    // A crash in the middle of writing step 3.
    appendFileSync(join(dir, 'm1.jsonl'), '{"v":3,"e":"c","s":{"shot":{"call"');
    const reopened = new FileStore(dir);
    await reopened.init();
    const log = await reopened.load('m1');
    expect(log?.steps.map((e) => e.stepId)).toEqual(['a', 'b']);
    expect(log?.steps.map((e) => e.step)).toEqual(steps.slice(0, 2));
    expect(await reopened.append('m1', 2, { stepId: 'c', step: steps[2]!, at: 4 }, snap(3))).toEqual({ status: 'ok', version: 3 });
    expect(await reopened.stepsSince('m1', 1)).toHaveLength(2);
    expect((await reopened.list(10)).map((s) => s.version)).toEqual([3]);
    await reopened.close();
    const lines = readFileSync(join(dir, 'm1.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => JSON.parse(l).v ?? 0)).toEqual([0, 1, 2, 3]);
    expect(await new FileStore(dir).load('../m1')).toBeNull();
  });

  it('keeps a checkpoint beside the log, opens from it, and closes idle logs (reopened on use, dedupe intact)', async () => {
    const store = new FileStore(dir);
    await store.init();
    await store.create({ id: 'm2', setup, tokenHash: 'ab'.repeat(32), createdAt: 1, rulesVersion: 1 }, snap(0));
    for (let i = 0; i < 4; i++) expect(await store.append('m2', i, { stepId: `e${i}`, step: steps[i]!, at: i }, snap(i + 1))).toMatchObject({ status: 'ok' });
    expect(await store.open('m2', 10)).toMatchObject({ checkpoint: null, from: 0 });
    const checkpoint = { format: 1, rulesVersion: 1, version: 3, depth: 3, core: newMatch(setup).core, stats: { sheet: [], open: [-1, -1], racks: [], tally: [], rackScored: 0, reracked: false, recent: [] } } as never;
    await store.saveCheckpoint('m2', checkpoint);
    const opened = await store.open('m2', 1);
    expect(opened?.checkpoint).toEqual(checkpoint);
    expect(opened?.from).toBe(3);
    expect(opened?.steps.map((e) => e.stepId)).toEqual(['e3']);
    expect((await store.open('m2', 2))?.steps.map((e) => e.stepId)).toEqual(['e2', 'e3']);
    expect((await store.stepsSince('m2', 1, 3)).map((e) => e.stepId)).toEqual(['e1', 'e2']);
    expect(await store.versionOfStep('m2', 'e2')).toBe(3);
    await new Promise((r) => setTimeout(r, 20));
    const openLogs = (store as unknown as { logs: { peek(id: string): unknown } }).logs;
    expect(openLogs.peek('m2')).toBeDefined();
    store.evictIdle(5, () => false);
    expect(openLogs.peek('m2')).toBeUndefined(); // closed
    expect(await store.append('m2', 4, { stepId: 'e1', step: steps[1]!, at: 9 }, snap(5))).toEqual({ status: 'duplicate', version: 2 });
    expect(await store.append('m2', 4, { stepId: 'e4', step: steps[0]!, at: 9 }, snap(5))).toEqual({ status: 'ok', version: 5 });
    expect((await store.load('m2'))?.steps).toHaveLength(5);
    await store.close();
  });
});
