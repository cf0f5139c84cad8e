/**
 * The embedded file store on its own: compare-and-append, eventId dedupe, and a torn last line (a crash in
 * the middle of a write, never acknowledged) cut off on the next open without losing the lines before it.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newMatch, parseSetup, view } from '../../shared/index';
import { summaryOf } from '../../server/matches';
import { FileStore } from '../../server/store/file-store';
import { legalSteps, SETUP } from '../helpers/server';

const dir = mkdtempSync(join(tmpdir(), 'cuecast-filestore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const setup = parseSetup(SETUP);
const state = view(newMatch(setup));
const snap = (version: number) => ({ summary: summaryOf('m1', state, version, 1000 + version), state });
const steps = legalSteps(4);

describe('FileStore', () => {
  it('appends only at the expected version, dedupes eventIds, and survives a torn last line', async () => {
    const store = new FileStore(dir);
    await store.init();
    await store.create({ id: 'm1', setup, tokenHash: 'ab'.repeat(32), createdAt: 1, rulesVersion: 1 }, snap(0));
    expect(await store.append('m1', 0, { eventId: 'a', step: steps[0]!, at: 1 }, snap(1))).toEqual({ status: 'ok', version: 1 });
    expect(await store.append('m1', 0, { eventId: 'b', step: steps[1]!, at: 2 }, snap(1))).toEqual({ status: 'stale', version: 1 });
    expect(await store.append('m1', 1, { eventId: 'a', step: steps[1]!, at: 2 }, snap(1))).toEqual({ status: 'duplicate', version: 1 });
    expect(await store.append('m1', 1, { eventId: 'b', step: steps[1]!, at: 3 }, snap(2))).toEqual({ status: 'ok', version: 2 });
    await store.close();

    // A crash in the middle of writing step 3.
    appendFileSync(join(dir, 'm1.jsonl'), '{"v":3,"e":"c","s":{"shot":{"call"');
    const reopened = new FileStore(dir);
    await reopened.init();
    const log = await reopened.load('m1');
    expect(log?.events.map((e) => e.eventId)).toEqual(['a', 'b']);
    expect(log?.events.map((e) => e.step)).toEqual(steps.slice(0, 2));
    expect(await reopened.append('m1', 2, { eventId: 'c', step: steps[2]!, at: 4 }, snap(3))).toEqual({ status: 'ok', version: 3 });
    expect(await reopened.eventsSince('m1', 1)).toHaveLength(2);
    expect((await reopened.list(10)).map((s) => s.version)).toEqual([3]);
    await reopened.close();
    const lines = readFileSync(join(dir, 'm1.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => JSON.parse(l).v ?? 0)).toEqual([0, 1, 2, 3]);
    expect(await new FileStore(dir).load('../m1')).toBeNull();
  });
});
