/**
 * The one-time import of the older embedded SQLite store into SQLite at start-up (server/storage/file-import.ts),
 * on real files as the file stores wrote them: every step of every match arrives at its version with
 * its stepId, events and their links come along, the files stay, and a second start imports nothing again.
 * Damage stays local: a match file with a corrupt line is imported up to the line before it, and a corrupt
 * event file is skipped; the other matches and events are whole.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { replay, RULES_VERSION, view } from '../../shared/index';
import { CLOCK_PRESETS, initialShotClock } from '../../shared/shot-clock';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { DB_FILE } from '../../server/storage/sqlite-store';
import type { TournamentDoc } from '../../server/storage/ports';
import { hashToken } from '../../server/tokens';
import { api, LONG_SETUP, plausibleSteps, startTestServer, tempDirs } from '../helpers/server';

const dirs = tempDirs();
const steps = plausibleSteps(300, LONG_SETUP, { seed: 7, undoRate: 0 });

/**
 * Write matches `ids` (with `counts[i]` steps each) and one event listing the first as the older file stores
 * wrote them: `<id>.jsonl` (line 1 `{"match": record}`, then one `{"v","e","s","t"}` line per step) and
 * `events/<id>.json` (the document).
 */
function writeFileStore(dir: string, ids: string[], counts: number[]) {
  const setup = parseSetup(LONG_SETUP);
  for (const [n, id] of ids.entries()) {
    const record = { id, setup, tokenHash: hashToken(`token-${id}`), createdAt: 1_000, rulesVersion: RULES_VERSION };
    const lines = [JSON.stringify({ match: record })];
    for (let i = 0; i < counts[n]!; i++) lines.push(JSON.stringify({ v: i + 1, e: `${id}-e${i}`, s: steps[i]!, t: 2_000 + i }));
    writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n') + '\n');
  }
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
  } as unknown as TournamentDoc;
  mkdirSync(join(dir, 'events'), { recursive: true });
  writeFileSync(join(dir, 'events', 'ev1.json'), JSON.stringify(doc));
}

describe('importing the file store into SQLite at start-up', () => {
  it('brings every step, event and link over once, keeps the files, and leaves damage local', async () => {
    const dir = dirs('import');
    writeFileStore(dir, ['whole', 'flipped', 'torn'], [250, 40, 30]);
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
    expect(
      readdirSync(dir)
        .filter((n) => n.endsWith('.jsonl'))
        .sort(),
    ).toEqual(['flipped.jsonl', 'torn.jsonl', 'whole.jsonl']);

    // A second start imports nothing again: the step recorded after the import is still the latest.
    server = await startTestServer({ dataDir: dir });
    try {
      expect(await api(server.url, '/api/matches/whole')).toMatchObject({ status: 200, body: { version: 251 } });
    } finally {
      await server.close();
    }
    expect(existsSync(join(dir, 'whole.jsonl'))).toBe(true);
  });

  it('brings the shot clocks of clocks/*.json over once (the files stay; a damaged one is skipped and named), and writes no file afterwards', async () => {
    const dir = dirs('clock-import');
    writeFileStore(dir, ['clocked', 'plain'], [3, 0]);
    // A clock as the file store of shot clocks kept it (settings, state, revision): one extension used by player A.
    const clock = initialShotClock(CLOCK_PRESETS.pro, view(replay(parseSetup(LONG_SETUP), steps.slice(0, 3))));
    const stored = { settings: CLOCK_PRESETS.pro, clock: { ...clock, extensionsUsed: [1, 0] }, revision: 4 };
    mkdirSync(join(dir, 'clocks'));
    writeFileSync(join(dir, 'clocks', 'clocked.json'), JSON.stringify(stored));
    writeFileSync(join(dir, 'clocks', 'plain.json'), '{"settings":{"allo');
    const before = readdirSync(join(dir, 'clocks')).sort();

    let server = await startTestServer({ dataDir: dir });
    try {
      expect(await api(server.url, '/api/matches/clocked')).toMatchObject({ status: 200, body: { clock: { status: 'idle', extensionsLeft: [0, 1] } } });
      expect(await api(server.url, '/api/matches/plain')).toMatchObject({ status: 200, body: { clock: null } });
      // It is pressed in the database from now on: the file stays as it was.
      const started = await api(server.url, '/api/matches/clocked/clock/start', { method: 'POST', token: 'token-clocked' });
      expect(started).toMatchObject({ status: 200, body: { clock: { status: 'running' } } });
    } finally {
      await server.close();
    }
    expect(readdirSync(join(dir, 'clocks')).sort()).toEqual(before);
    expect(JSON.parse(readFileSync(join(dir, 'clocks', 'clocked.json'), 'utf8'))).toEqual(stored);
    const db = new Database(join(dir, DB_FILE), { readonly: true });
    const marker = JSON.parse((db.prepare("SELECT value FROM meta WHERE key = 'clock-import'").get() as { value: string }).value);
    db.close();
    expect(marker).toMatchObject({ clocks: 1, skipped: [expect.stringMatching(/^clocks\/plain\.json: /)] });

    // A second start imports nothing again: the press made in the database stays.
    server = await startTestServer({ dataDir: dir });
    try {
      expect(await api(server.url, '/api/matches/clocked')).toMatchObject({ status: 200, body: { clock: { status: 'running', extensionsLeft: [0, 1] } } });
    } finally {
      await server.close();
    }
  });
});
