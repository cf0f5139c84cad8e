/**
 * The one-time import of the older embedded file store into SQLite at start-up (server/storage/file-import.ts),
 * on real files written by the file stores themselves: every step of every match arrives at its version with
 * its eventId, events and their links come along, the files stay, and a second start imports nothing again.
 * Damage stays local: a match file with a corrupt line is imported up to the line before it, and a corrupt
 * event file is skipped; the other matches and events are whole.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { newMatch, RULES_VERSION, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { summaryOf } from '../../server/matches/service';
import { FileStore } from '../../server/storage/file-store';
import { FileEventStore } from '../../server/storage/file-event-store';
import { DB_FILE } from '../../server/storage/sqlite-store';
import type { EventDoc } from '../../server/storage/event-store';
import { hashToken } from '../../server/tokens';
import { api, LONG_SETUP, plausibleSteps, startTestServer, tempDirs } from '../helpers/server';

const dirs = tempDirs();
const steps = plausibleSteps(300, LONG_SETUP, { seed: 7, undoRate: 0 });

/** Write matches `ids` (with `counts[i]` steps each) and one event listing the first, through the file stores. */
async function writeFileStore(dir: string, ids: string[], counts: number[]) {
  const files = new FileStore(dir);
  const events = new FileEventStore(dir);
  await files.init();
  await events.init();
  const setup = parseSetup(LONG_SETUP);
  for (const [n, id] of ids.entries()) {
    const state = view(newMatch(setup));
    await files.create({ id, setup, tokenHash: hashToken(`token-${id}`), createdAt: 1_000, rulesVersion: RULES_VERSION }, { summary: summaryOf(id, state, 0, 1_000), state });
    for (let i = 0; i < counts[n]!; i++) {
      const res = await files.append(id, i, { stepId: `${id}-e${i}`, step: steps[i]!, at: 2_000 + i }, { summary: summaryOf(id, state, i + 1, 2_000 + i), state });
      expect(res.status).toBe('ok');
    }
  }
  await files.close();
  const doc = {
    id: 'ev1',
    name: 'League night',
    date: '2026-03-13',
    defaults: { discipline: '14-1' },
    theme: {},
    tables: [],
    roster: [],
    matches: [{ id: ids[0]!, table: 't1', players: ['A', 'B'], addedAt: 1, startedAt: null }],
    version: 0,
    createdAt: 1,
    updatedAt: 5_000,
    tokenHash: hashToken('organiser'),
    nextPlayer: 1,
  } as unknown as EventDoc;
  await events.createEvent(doc);
  await events.close();
}

describe('importing the file store into SQLite at start-up', () => {
  it('brings every step, event and link over once, keeps the files, and leaves damage local', async () => {
    const dir = dirs('import');
    await writeFileStore(dir, ['whole', 'flipped', 'torn'], [250, 40, 30]);
    // A flipped byte on line 21 (step 20) of one match; a torn last line (a crash mid-write) on another.
    const flipped = join(dir, 'flipped.jsonl');
    const lines = readFileSync(flipped, 'utf8').split('\n');
    lines[20] = lines[20]!.replace('"v":20', '"v":2\u0000');
    writeFileSync(flipped, lines.join('\n'));
    appendFileSync(join(dir, 'torn.jsonl'), '{"v":31,"e":"torn-e30","s":{"sh');
    writeFileSync(join(dir, 'events', 'broken.json'), '{"id":"broken","na');

    let server = await startTestServer({ dataDir: dir });
    try {
      const whole = await api(server.url, '/api/matches/whole/steps');
      expect(whole.body.version).toBe(250);
      expect(whole.body.steps.map((e: { stepId: string }) => e.stepId)).toEqual(steps.slice(0, 250).map((_, i) => `whole-e${i}`));
      expect(await api(server.url, '/api/matches/flipped')).toMatchObject({ status: 200, body: { version: 19 } });
      expect(await api(server.url, '/api/matches/torn')).toMatchObject({ status: 200, body: { version: 30 } });
      const list = await api(server.url, '/api/matches');
      expect(list.body.matches).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: 'whole', version: 250 }), expect.objectContaining({ id: 'flipped', version: 19 })]),
      );
      const events = await api(server.url, '/api/events');
      expect(events.status).toBe(200);
      expect(events.body.events.map((e: { id: string }) => e.id)).toEqual(['ev1']);
      // The imported match records on, with its scorer token.
      const next = await api(server.url, '/api/matches/whole/steps', { method: 'POST', token: 'token-whole', body: { stepId: 'after', step: steps[250] } });
      expect(next).toMatchObject({ status: 201, body: { version: 251 } });
    } finally {
      await server.close();
    }
    const db = new Database(join(dir, DB_FILE), { readonly: true });
    const marker = JSON.parse((db.prepare("SELECT value FROM meta WHERE key = 'file-import'").get() as { value: string }).value);
    expect(db.prepare("SELECT event_id FROM event_links WHERE match_id = 'whole'").all()).toEqual([{ event_id: 'ev1' }]);
    db.close();
    expect(marker).toMatchObject({ matches: 3, steps: 250 + 19 + 30, events: 1 });
    expect(marker.skipped).toEqual([expect.stringMatching(/^flipped\.jsonl: line 21/), expect.stringMatching(/^events\/broken\.json/)]);
    expect(readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()).toEqual(['flipped.jsonl', 'torn.jsonl', 'whole.jsonl']);

    // A second start imports nothing again: the step recorded after the import is still the latest.
    server = await startTestServer({ dataDir: dir });
    try {
      expect(await api(server.url, '/api/matches/whole')).toMatchObject({ status: 200, body: { version: 251 } });
    } finally {
      await server.close();
    }
    expect(existsSync(join(dir, 'whole.jsonl'))).toBe(true);
  });
});
