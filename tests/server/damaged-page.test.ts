/**
 * Embedded mode, a damaged page on disk (issue 30): six matches are recorded, the server stops, and one leaf
 * page of the `steps` table's b-tree (found with the `dbstat` virtual table) is overwritten in the file. On the
 * next start the server's `quick_check` finds it and names the matches whose rows it held: `/healthz` lists them,
 * each answers the permanent `store-damaged` (HTTP 500, no "retry"), and every other match reads in full and
 * keeps recording. The start salvages the file (server/storage/sqlite-salvage.ts): the damaged file is kept in
 * `DATA_DIR/damaged/`, the new database passes `quick_check`, and a second restart still names the damaged matches
 * (read-only) without salvaging again.
 */
import { closeSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DB_FILE, SqliteDb } from '../../server/storage/sqlite-store';
import { api, createMatch as createAnyMatch, LONG_SETUP, plausibleSteps, startTestServer, tempDirs } from '../helpers/server';

const steps = plausibleSteps(60, LONG_SETUP, { seed: 30, undoRate: 0 });
const dirs = tempDirs();
const MATCHES = 6;
const STEPS_EACH = 40;

function record(url: string, m: { id: string; scorerToken: string }, stepId: string, step: unknown) {
  return api(url, `/api/matches/${m.id}/steps`, { method: 'POST', token: m.scorerToken, body: { stepId, step } });
}

/** Overwrite the header of a middle leaf page of `steps`; the ids of the matches whose bytes were on it. */
function damageOneStepsPage(dir: string, ids: string[]): { page: number; touched: string[] } {
  const file = join(dir, DB_FILE);
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const leaves = db.prepare("SELECT pageno FROM dbstat WHERE name = 'steps' AND pagetype = 'leaf' ORDER BY path").all() as { pageno: number }[];
  db.close();
  expect(leaves.length, 'the steps table spans several leaf pages').toBeGreaterThan(4);
  const page = leaves[Math.floor(leaves.length / 2)]!.pageno;
  const bytes = readFileSync(file)
    .subarray((page - 1) * pageSize, page * pageSize)
    .toString('latin1');
  const touched = ids.filter((id) => bytes.includes(id));
  const fd = openSync(file, 'r+');
  try {
    // A b-tree page starts with its type byte (13 for a table leaf, 10 for an index leaf): 0xFF is no type at all.
    writeSync(fd, Buffer.alloc(12, 0xff), 0, 12, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return { page, touched };
}

describe('embedded mode: a damaged page of the database file', () => {
  it('names the matches it touches in /healthz, answers store-damaged for them, and every other match reads and records', async () => {
    const dir = dirs('damaged-page');
    let server = await startTestServer({ dataDir: dir });
    const matches = [];
    for (let i = 0; i < MATCHES; i++) matches.push(await createAnyMatch(server.url, LONG_SETUP));
    for (const m of matches) for (let i = 0; i < STEPS_EACH; i++) expect((await record(server.url, m, `s${i}`, steps[i])).status).toBe(201);
    await server.close();

    const { touched } = damageOneStepsPage(
      dir,
      matches.map((m) => m.id),
    );
    expect(touched.length, 'the damaged page held rows of some matches').toBeGreaterThan(0);
    expect(touched.length, 'and not of all of them').toBeLessThan(MATCHES);

    server = await startTestServer({ dataDir: dir });
    try {
      const health = await api(server.url, '/healthz');
      const damaged = (health.body.damaged as { kind: string; id: string }[]).filter((d) => d.kind === 'match').map((d) => d.id);
      expect(damaged.length).toBeGreaterThan(0);
      for (const id of damaged) expect(touched).toContain(id);

      for (const m of matches) {
        if (damaged.includes(m.id)) {
          const refused = await record(server.url, m, 'after', steps[STEPS_EACH]);
          expect(refused, m.id).toMatchObject({ status: 500, body: { error: { code: 'store-damaged' } } });
          expect(refused.body.error.message).not.toMatch(/retry later|retry with/);
          expect(refused.body.error.message).toMatch(/backup/);
        } else {
          expect(await api(server.url, `/api/matches/${m.id}`), m.id).toMatchObject({ status: 200, body: { version: STEPS_EACH } });
          const log = await api(server.url, `/api/matches/${m.id}/steps`);
          expect(log.body.steps).toHaveLength(STEPS_EACH);
          expect(await record(server.url, m, 'after', steps[STEPS_EACH]), m.id).toMatchObject({ status: 201 });
        }
      }
      const list = await api(server.url, '/api/matches');
      expect(list.status).toBe(200);
    } finally {
      await server.close();
    }

    // The salvage (server/storage/sqlite-salvage.ts): the damaged file was kept aside, the new one is whole, and
    // the next start neither salvages again nor forgets the damaged matches.
    const kept = readdirSync(join(dir, 'damaged')).filter((f) => f.endsWith('.db'));
    expect(kept, 'the damaged file kept in DATA_DIR/damaged/').toHaveLength(1);
    expect(kept[0]).toMatch(/^cuecast-.+\.db$/);
    const fresh = new Database(join(dir, DB_FILE), { readonly: true });
    try {
      expect(fresh.pragma('quick_check')).toEqual([{ quick_check: 'ok' }]);
    } finally {
      fresh.close();
    }
    server = await startTestServer({ dataDir: dir });
    try {
      const again = (await api(server.url, '/healthz')).body.damaged as { kind: string; id: string }[];
      const stillDamaged = again.filter((d) => d.kind === 'match').map((d) => d.id);
      expect(stillDamaged.length).toBeGreaterThan(0);
      for (const id of stillDamaged) expect(touched).toContain(id);
      for (const m of matches) {
        if (stillDamaged.includes(m.id)) {
          expect(await record(server.url, m, 'again', steps[STEPS_EACH + 1]), m.id).toMatchObject({ status: 500, body: { error: { code: 'store-damaged' } } });
        } else {
          expect(await api(server.url, `/api/matches/${m.id}`), m.id).toMatchObject({ status: 200, body: { version: STEPS_EACH + 1 } });
        }
      }
    } finally {
      await server.close();
    }
    expect(readdirSync(join(dir, 'damaged')).filter((f) => f.endsWith('.db'))).toEqual(kept);
  });

  it('finds damage on read too (no start-up check): the match is named and answers store-damaged', async () => {
    const dir = dirs('damaged-read');
    const server = await startTestServer({ dataDir: dir });
    const matches = [];
    for (let i = 0; i < MATCHES; i++) matches.push(await createAnyMatch(server.url, LONG_SETUP));
    for (const m of matches) for (let i = 0; i < STEPS_EACH; i++) expect((await record(server.url, m, `s${i}`, steps[i])).status).toBe(201);
    await server.close();
    const { touched } = damageOneStepsPage(
      dir,
      matches.map((m) => m.id),
    );

    const db = new SqliteDb(dir);
    try {
      const found: string[] = [];
      for (const m of matches) {
        try {
          await db.matches.load(m.id);
        } catch (err) {
          expect((err as Error).name).toBe('StoreRefusal');
        }
      }
      for (const d of db.health.detail().damaged) found.push(d.id);
      expect(found.length).toBeGreaterThan(0);
      for (const id of found) expect(touched).toContain(id);
      for (const m of matches.filter((x) => !found.includes(x.id))) expect((await db.matches.load(m.id))!.steps).toHaveLength(STEPS_EACH);
    } finally {
      db.close();
    }
  });
});
