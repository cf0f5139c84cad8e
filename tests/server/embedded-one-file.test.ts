/**
 * Embedded mode is one SQLite database for everything (issue 26): a server on a DATA_DIR records a step,
 * turns on and presses a shot clock, makes an event with a table match, adds a sponsor's logo — and afterwards
 * the folder holds the database and its WAL files only (no JSON file, no folder); a restart on the same folder
 * serves all of it again.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DB_FILE } from '../../server/storage/sqlite-store';
import { createEvent, recordStep, tableMatch } from '../helpers/events';
import { pngOf } from '../helpers/images';
import { api, createMatch, legalSteps, startTestServer, tempDirs } from '../helpers/server';

const dirs = tempDirs();

/** Every entry under `dir`, recursively, relative to it (folders end in `/`). */
function listing(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const rel = under ? `${under}/${name}` : name;
    return statSync(join(dir, rel)).isDirectory() ? [`${rel}/`, ...listing(dir, rel)] : [rel];
  });
}

describe('embedded mode keeps everything in one SQLite database', () => {
  it('a step, a shot clock, an event and a sponsor write no file beside the database; a restart serves them', async () => {
    const dir = dirs('one-file');
    let server = await startTestServer({ dataDir: dir });
    const m = await createMatch(server.url);
    let ev: Awaited<ReturnType<typeof createEvent>>;
    let sponsorId: string;
    try {
      await recordStep(server.url, m, legalSteps(1)[0]!);
      expect(await api(server.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro' } })).toMatchObject({
        status: 200,
      });
      expect(await api(server.url, `/api/matches/${m.id}/clock/start`, { method: 'POST', token: m.scorerToken })).toMatchObject({
        status: 200,
        body: { clock: { status: 'running' } },
      });
      ev = await createEvent(server.url);
      await tableMatch(server.url, ev, ev.event.tables[0]!.id, [ev.event.roster[0]!.id, ev.event.roster[1]!.id]);
      const res = await fetch(`${server.url}/api/events/${ev.id}/sponsors?name=Blue%20Chalk`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${ev.organiserToken}` },
        body: new Uint8Array(pngOf(8, 4, [0, 120, 255])),
      });
      expect(res.status).toBe(201);
      sponsorId = ((await res.json()) as { sponsor: { id: string } }).sponsor.id;
      const files = listing(dir);
      expect(files.filter((f) => !f.startsWith(DB_FILE))).toEqual([]);
      expect(files).toContain(DB_FILE);
    } finally {
      await server.close();
    }
    expect(listing(dir).filter((f) => !f.startsWith(DB_FILE))).toEqual([]);

    server = await startTestServer({ dataDir: dir });
    try {
      expect(await api(server.url, `/api/matches/${m.id}`)).toMatchObject({ status: 200, body: { version: 1, clock: { status: 'running' } } });
      const event = await api(server.url, `/api/events/${ev.id}`);
      expect(event).toMatchObject({ status: 200, body: { sponsors: [{ id: sponsorId, name: 'Blue Chalk' }] } });
      expect(event.body.matches).toHaveLength(1);
      const logo = await fetch(`${server.url}/api/events/${ev.id}/sponsors/${sponsorId}/image`);
      expect(logo.status).toBe(200);
    } finally {
      await server.close();
    }
    expect(listing(dir).filter((f) => !f.startsWith(DB_FILE))).toEqual([]);
  });
});
