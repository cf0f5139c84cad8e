/**
 * A few hundred malformed messages (a hand-written table plus fast-check generated mutations of legal
 * steps and random JSON), over Socket.IO and REST: each gets a specific error — code and field — and
 * changes nothing: same version, same log, no push to viewers. A missing or other protocol version is
 * `protocol-mismatch`, before anything else; a bad envelope (matchId, stepId, expectedVersion, a non-object
 * request) is `invalid-request`; a bad step is `invalid-step`. Embedded mode (the SQLite store).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { stepSchema } from '../../server/protocol/step-schemas';
import { PROTOCOL_VERSION, type RecordAck } from '../../shared/protocol/wire';
import { api, call, connect, createMatch, legalSteps, request, startTestServer, Viewer, type Client } from '../helpers/server';
import { fcRuns } from '../helpers/fc-runs';

interface Row {
  name: string;
  /** Socket request (or REST body when `rest`). */
  payload: unknown;
  code: string;
  /** Exact field, or a prefix when `prefix` is set. */
  field: string;
  prefix?: boolean;
  /** Socket.IO only (REST gives the row's payload another meaning). */
  socketOnly?: boolean;
}

const steps = legalSteps(3);

/** Envelope rows: everything but the step (`invalid-request`). `M` is replaced by the match id. */
function envelopeRows(): Row[] {
  const base = { protocol: PROTOCOL_VERSION, matchId: 'M', stepId: 'bad', expectedVersion: 3, step: steps[0] };
  const rows: Row[] = [];
  // Another protocol version is refused before any other check (a page from another build hears "reload").
  const { protocol: _, ...unversioned } = base;
  rows.push({ name: 'no protocol (a page from before versioning)', payload: unversioned, code: 'protocol-mismatch', field: 'protocol', socketOnly: true });
  rows.push({
    name: 'no protocol and an unknown key',
    payload: { ...unversioned, extra: 1, stepId: 5 },
    code: 'protocol-mismatch',
    field: 'protocol',
    socketOnly: true,
  });
  for (const v of [1, PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1, '2', null, 2.5]) {
    rows.push({ name: `protocol ${JSON.stringify(v)}`, payload: { ...base, protocol: v }, code: 'protocol-mismatch', field: 'protocol' });
  }
  for (const p of [null, 1, 'x', [], true, [base]]) rows.push({ name: `request ${JSON.stringify(p)}`, payload: p, code: 'invalid-request', field: 'request' });
  rows.push({ name: 'unknown key', payload: { ...base, extra: 1 }, code: 'invalid-request', field: 'extra' });
  for (const v of [undefined, '', 5, null, {}, 'x'.repeat(65)])
    rows.push({ name: `matchId ${JSON.stringify(v)}`, payload: { ...base, matchId: v }, code: 'invalid-request', field: 'matchId' });
  for (const v of [undefined, '', 5, null, [], 'e'.repeat(101), 'a\nb', 'a\u0000', '\u001b[2J', 'x\u007f', 'x\u0085'])
    rows.push({ name: `stepId ${JSON.stringify(v)}`, payload: { ...base, stepId: v }, code: 'invalid-request', field: 'stepId' });
  for (const v of [-1, 1.5, '3', null, {}, true])
    rows.push({ name: `expectedVersion ${JSON.stringify(v)}`, payload: { ...base, expectedVersion: v }, code: 'invalid-request', field: 'expectedVersion' });
  rows.push({ name: 'unknown match', payload: { ...base, matchId: 'no-such-match' }, code: 'not-found', field: 'matchId' });
  rows.push({ name: 'match id with a slash', payload: { ...base, matchId: '../etc' }, code: 'not-found', field: 'matchId' });
  rows.push({ name: 'too large', payload: { ...base, step: { shot: { fouls: Array(3000).fill('slow-play') } } }, code: 'too-large', field: 'request' });
  rows.push({ name: 'stale', payload: { ...base, expectedVersion: 1 }, code: 'stale', field: 'expectedVersion' });
  return rows;
}

/** Step rows: [step, field] with the field the engine must name. */
const STEP_TABLE: [unknown, string][] = [
  [undefined, 'step'],
  [null, 'step'],
  [5, 'step'],
  ['shot', 'step'],
  [[], 'step'],
  [{ shot: null }, 'step.shot'],
  [{ shot: 'x' }, 'step.shot'],
  [{ shot: { x: 1 } }, 'step.shot.x'],
  [{ choice: { cueBall: 'kitchen', lowestBall: 'as-is', x: 1 } }, 'step.choice.x'],
  [{ shot: { pocketed: [0] } }, 'step.shot.pocketed.0'],
  [{ shot: { pocketed: [16] } }, 'step.shot.pocketed.0'],
  [{ shot: { pocketed: [3, 1.5] } }, 'step.shot.pocketed.1'],
  [{ shot: { pocketed: ['1'] } }, 'step.shot.pocketed.0'],
  [{ shot: { pocketed: 'x' } }, 'step.shot.pocketed'],
  [{ shot: { pocketed: -1 } }, 'step.shot.pocketed'],
  [{ shot: { pocketed: 16 } }, 'step.shot.pocketed'],
  [{ shot: { pocketed: Array(16).fill(1) } }, 'step.shot.pocketed'],
  [{ shot: { call: 'x' } }, 'step.shot.call'],
  [{ shot: { call: { ball: 0 } } }, 'step.shot.call.ball'],
  [{ shot: { call: { ball: 16 } } }, 'step.shot.call.ball'],
  [{ shot: { call: { ball: '3' } } }, 'step.shot.call.ball'],
  [{ shot: { call: { made: 'yes' } } }, 'step.shot.call.made'],
  [{ shot: { offTable: [0] } }, 'step.shot.offTable.0'],
  [{ shot: { offTable: 3 } }, 'step.shot.offTable'],
  [{ shot: { firstContact: 0 } }, 'step.shot.firstContact'],
  [{ shot: { firstContact: 'x' } }, 'step.shot.firstContact'],
  [{ shot: { rail: 'yes' } }, 'step.shot.rail'],
  [{ shot: { breakRails: {} } }, 'step.shot.breakRails.objectBalls'],
  [{ shot: { breakRails: { objectBalls: -1 } } }, 'step.shot.breakRails.objectBalls'],
  [{ shot: { breakRails: { objectBalls: 16 } } }, 'step.shot.breakRails.objectBalls'],
  [{ shot: { breakRails: { objectBalls: 2, cueBall: 'y' } } }, 'step.shot.breakRails.cueBall'],
  [{ shot: { cueBall: 'x' } }, 'step.shot.cueBall'],
  [{ shot: { fouls: ['x'] } }, 'step.shot.fouls.0'],
  [{ shot: { fouls: 'slow-play' } }, 'step.shot.fouls'],
  [{ shot: { fouls: Array(9).fill('slow-play') } }, 'step.shot.fouls'],
  [{ shot: { pushOut: 'x' } }, 'step.shot.pushOut'],
  [{ shot: { cueBallInKitchen: 1 } }, 'step.shot.cueBallInKitchen'],
  [{ shot: { rackArea: { cueBall: 'x' } } }, 'step.shot.rackArea.cueBall'],
  [{ shot: { rackArea: { x: 1 } } }, 'step.shot.rackArea.x'],
  [{ stalemate: { breaker: 'C' } }, 'step.stalemate.breaker'],
  [{ stalemate: {} }, 'step.stalemate.breaker'],
  [{ choice: 'x' }, 'step.choice'],
  [{ choice: { cueBall: 'x', lowestBall: 'as-is' } }, 'step.choice.cueBall'],
  [{ choice: { cueBall: 'kitchen' } }, 'step.choice.lowestBall'],
  [{ undo: false }, 'step.undo'],
  [{ warning: 'C' }, 'step.warning'],
  [{ shot: {}, undo: true }, 'step'],
];

function stepRows(): Row[] {
  return STEP_TABLE.map(([step, field]) => ({
    name: `step ${JSON.stringify(step)}`,
    payload: { protocol: PROTOCOL_VERSION, matchId: 'M', stepId: 'bad', expectedVersion: 3, step },
    code: 'invalid-step',
    field,
  }));
}

/** fast-check: legal shots with one field replaced by random JSON, and random JSON as the whole step. */
function generatedRows(): Row[] {
  const keys = ['call', 'pocketed', 'offTable', 'firstContact', 'rail', 'breakRails', 'cueBall', 'fouls', 'pushOut', 'cueBallInKitchen', 'rackArea'];
  const rows: Row[] = [];
  const mutations = fc.sample(fc.tuple(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 2 })), { seed: 42, numRuns: fcRuns(400) });
  for (const [key, value] of mutations) {
    const step = { shot: { call: { ball: 1 }, pocketed: [1], [key]: value } };
    if (stepSchema.safeParse(step).success) continue;
    rows.push({
      name: `shot.${key} = ${JSON.stringify(value).slice(0, 40)}`,
      payload: { protocol: PROTOCOL_VERSION, matchId: 'M', stepId: 'bad', expectedVersion: 3, step },
      code: 'invalid-step',
      field: `step.shot.${key}`,
      prefix: true,
    });
    if (rows.length >= 200) break;
  }
  for (const value of fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: 7, numRuns: fcRuns(80) })) {
    if (stepSchema.safeParse(value).success) continue;
    rows.push({
      name: `random step ${JSON.stringify(value).slice(0, 40)}`,
      payload: { protocol: PROTOCOL_VERSION, matchId: 'M', stepId: 'bad', expectedVersion: 3, step: value },
      code: 'invalid-step',
      field: 'step',
      prefix: true,
    });
  }
  return rows;
}

function fieldMatches(row: Row, field: string | undefined): boolean {
  if (field === undefined) return false;
  return row.prefix ? field === row.field || field.startsWith(`${row.field}.`) : field === row.field;
}

describe('malformed payloads', () => {
  let server: RunningServer;
  let dir: string;
  let match: { id: string; scorerToken: string };
  let scorer: Client;
  let viewerSocket: Client;
  let viewer: Viewer;
  let logBefore: unknown;

  const rows = [...envelopeRows(), ...stepRows(), ...generatedRows()];
  const withId = (p: unknown): unknown =>
    p && typeof p === 'object' && !Array.isArray(p) && (p as { matchId?: unknown }).matchId === 'M' ? { ...p, matchId: match.id } : p;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cuecast-malformed-'));
    server = await startTestServer({ dataDir: dir });
    match = await createMatch(server.url);
    scorer = await connect(server.url, match.scorerToken);
    for (let i = 0; i < 3; i++) {
      const ack = await request(scorer, 'record', { matchId: match.id, stepId: `ok${i}`, expectedVersion: i, step: steps[i] });
      expect(ack.ok).toBe(true);
    }
    viewerSocket = await connect(server.url);
    viewer = new Viewer(viewerSocket);
    await request(viewerSocket, 'subscribe', { matchId: match.id });
    logBefore = (await api(server.url, `/api/matches/${match.id}/steps`)).body;
  });
  afterAll(async () => {
    scorer?.close();
    viewerSocket?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`has a few hundred cases (${rows.length})`, () => {
    expect(rows.length).toBeGreaterThanOrEqual(250);
  });

  it('over Socket.IO each gets its specific code and field', async () => {
    const wrong: string[] = [];
    for (const row of rows) {
      const ack = await call<RecordAck>(scorer, 'record', withId(row.payload));
      if (ack.ok || ack.error.code !== row.code || !fieldMatches(row, ack.error.field) || !ack.error.message) {
        wrong.push(`${row.name}: expected ${row.code} ${row.field}, got ${JSON.stringify(ack).slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('over REST each step row gets 400 with its field (409 for stale, 413 too large, 404 unknown match)', async () => {
    const wrong: string[] = [];
    const statusOf: Record<string, number> = {
      'invalid-request': 400,
      'invalid-step': 400,
      'protocol-mismatch': 400,
      stale: 409,
      'too-large': 413,
      'not-found': 404,
    };
    for (const row of rows) {
      const p = withId(row.payload) as Record<string, unknown> | null;
      // Only object requests map to REST (matchId moves to the path, where an unknown id is a 404).
      if (
        !p ||
        typeof p !== 'object' ||
        Array.isArray(p) ||
        typeof p.matchId !== 'string' ||
        !/^[\w-]+$/.test(p.matchId) ||
        row.field === 'request' ||
        row.field === 'matchId' ||
        row.socketOnly
      )
        continue;
      const { matchId, ...body } = p;
      const res = await api(server.url, `/api/matches/${matchId}/steps`, { token: match.scorerToken, body });
      const err = res.body?.error;
      if (res.status !== statusOf[row.code] || err?.code !== row.code || !fieldMatches(row, err?.field)) {
        wrong.push(`${row.name}: expected ${statusOf[row.code]} ${row.code} ${row.field}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    // REST-only shapes: not JSON, a JSON body that is not an object, a body over the limit.
    const notJson = await api(server.url, `/api/matches/${match.id}/steps`, { token: match.scorerToken, rawBody: '{"stepId":' });
    expect(notJson).toMatchObject({ status: 400, body: { error: { code: 'invalid-request', field: 'body' } } });
    for (const raw of ['null', '5', '"x"', '[]', 'true']) {
      const res = await api(server.url, `/api/matches/${match.id}/steps`, { token: match.scorerToken, rawBody: raw });
      expect(res, raw).toMatchObject({ status: 400, body: { error: { code: 'invalid-request', field: 'body' } } }); // docs/api.md's word for a REST body
    }
    const huge = await api(server.url, `/api/matches/${match.id}/steps`, {
      token: match.scorerToken,
      rawBody: JSON.stringify({ stepId: 'h', step: { x: 'y'.repeat(40_000) } }),
    });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: 'too-large' } } });
    const badSetup = await api(server.url, '/api/matches', { body: { discipline: '14-1', players: ['Ann', ''] } });
    expect(badSetup).toMatchObject({ status: 400, body: { error: { code: 'invalid-setup', field: 'setup.players.1' } } });
    // A set-up field typo is refused, not silently replaced by the defaults (`target` for `targets`).
    const before = (await api(server.url, '/api/matches')).body.matches.length;
    const typo = await api(server.url, '/api/matches', { rawBody: '{"discipline":"14-1","players":["Ann","Bob"],"target":[25,25]}' });
    expect(typo).toMatchObject({ status: 400, body: { error: { code: 'invalid-setup', field: 'setup.target' } } });
    expect(typo.body.error.message).toContain('setup.target');
    const bidi = await api(server.url, '/api/matches', { body: { discipline: '14-1', players: ['Ann\u202e', 'Bob'] } });
    expect(bidi).toMatchObject({ status: 400, body: { error: { code: 'invalid-setup', field: 'setup.players.0' } } });
    expect((await api(server.url, '/api/matches')).body.matches).toHaveLength(before);
  });

  it('subscribe: a bad envelope is invalid-request naming the field; another protocol version is protocol-mismatch', async () => {
    const protocol = PROTOCOL_VERSION;
    const cases: [unknown, string, string][] = [
      [null, 'invalid-request', 'request'],
      ['x', 'invalid-request', 'request'],
      [{ protocol, matchId: 5 }, 'invalid-request', 'matchId'],
      [{ protocol, matchId: '' }, 'invalid-request', 'matchId'],
      [{ protocol, matchId: match.id, sinceVersion: -1 }, 'invalid-request', 'sinceVersion'],
      [{ protocol, matchId: match.id, extra: true }, 'invalid-request', 'extra'],
      [{ matchId: match.id }, 'protocol-mismatch', 'protocol'],
      [{ matchId: 5, sinceVersion: -1 }, 'protocol-mismatch', 'protocol'],
      [{ protocol: protocol - 1, matchId: match.id }, 'protocol-mismatch', 'protocol'],
      [{ protocol: protocol + 1, matchId: match.id }, 'protocol-mismatch', 'protocol'],
    ];
    for (const [payload, code, field] of cases) {
      const ack = await call<{ ok: boolean; error?: { code: string; field?: string } }>(viewerSocket, 'subscribe', payload);
      expect(ack, JSON.stringify(payload)).toMatchObject({ ok: false, error: { code, field } });
    }
  });

  it('an event emitted with only a callback (no request) is answered: invalid-request naming the request, or the time', async () => {
    const noRequest = <T>(event: string) => (viewerSocket.timeout(5000) as unknown as { emitWithAck(event: string): Promise<T> }).emitWithAck(event);
    for (const event of ['subscribe', 'record', 'shotClock', 'shotClockAction', 'subscribeTable', 'subscribeEvent']) {
      // every acked event
      const ack = await noRequest<{ ok: boolean; error?: { code: string; field?: string } }>(event);
      expect(ack, event).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^(invalid-request|protocol-mismatch)$/) } });
    }
    const before = Date.now();
    const time = await noRequest<{ ok: boolean; now: number }>('time');
    expect(time.ok && time.now >= before - 1000 && time.now <= Date.now() + 1000, JSON.stringify(time)).toBe(true);
  });

  it('REST: each refusal names the field as docs/api.md does (body, setup.…, id, table) and echoes no long id', async () => {
    const setupOf = { discipline: '14-1', players: ['A', 'B'] };
    const cases: [string, { method?: string; token?: string; body?: unknown; rawBody?: string }, number, string, string, RegExp?][] = [
      // A record body that is not an object: the body.
      [`/api/matches/${match.id}/steps`, { token: match.scorerToken, rawBody: '[1,2]' }, 400, 'invalid-request', 'body'],
      [`/api/matches/${match.id}/steps`, { token: match.scorerToken, rawBody: 'null' }, 400, 'invalid-request', 'body'],
      // A forbidden key inside a set-up is the set-up's field; inside its clock, the clock's.
      [
        '/api/matches',
        { rawBody: '{"discipline":"14-1","players":["A","B"],"options":{"constructor":{}}}' },
        400,
        'invalid-setup',
        'setup.options.constructor',
      ],
      ['/api/matches', { rawBody: '{"discipline":"14-1","players":["A","B"],"clock":{"constructor":{}}}' }, 400, 'invalid-setup', 'clock.constructor'],
      // An unknown set-up field: the known ones listed include the clock the same body may carry.
      ['/api/matches', { body: { ...setupOf, target: [25, 25] } }, 400, 'invalid-setup', 'setup.target', /clock/],
      // Rotation scores are never negative; both the head start and a score in progress stay below the target.
      [
        '/api/matches',
        { body: { discipline: 'rotation', players: ['A', 'B'], startScore: [-50, 0] } },
        400,
        'invalid-setup',
        'setup.startScore.0',
        /never negative/,
      ],
      [
        '/api/matches',
        { body: { discipline: 'rotation', players: ['A', 'B'], start: { score: [0, -1] } } },
        400,
        'invalid-setup',
        'setup.start.score.1',
        /never negative/,
      ],
      [
        '/api/matches',
        { body: { ...setupOf, targets: [100, 100], startScore: [500, 0], start: { score: [10, 0] } } },
        400,
        'invalid-setup',
        'setup.startScore.0',
        /target 100/,
      ],
      // An id or table the server could never have made: 400, not a 404 that echoes it.
      [`/api/matches/${'a'.repeat(7000)}`, {}, 400, 'invalid-request', 'matchId'],
      [`/api/matches/bad.id/steps`, {}, 400, 'invalid-request', 'matchId'],
      [`/api/events/${'e'.repeat(65)}`, {}, 400, 'invalid-event', 'eventId'],
      ['/api/events/some-event/tables/Table_1', {}, 400, 'invalid-event', 'table'],
    ];
    for (const [path, init, status, code, field, message] of cases) {
      const res = await api(server.url, path, init);
      const what = `${init.method ?? (init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET')} ${path.slice(0, 60)} ${init.rawBody ?? JSON.stringify(init.body) ?? ''}`;
      expect([res.status, res.body?.error?.code, res.body?.error?.field], what).toEqual([status, code, field]);
      if (message) expect(res.body.error.message, what).toMatch(message);
      expect(JSON.stringify(res.body).length, what).toBeLessThan(1000);
    }
    // A valid id that is not there is still 404.
    expect((await api(server.url, '/api/matches/no-such-match')).status).toBe(404);
  });

  it('nothing changed: same version, same log, no push to viewers', async () => {
    const after = await api(server.url, `/api/matches/${match.id}/steps`);
    expect(after.body).toEqual(logBefore);
    expect(after.body.version).toBe(3);
    expect(viewer.pushes).toHaveLength(0);
    // And the connection still works for a legal step.
    expect(await request(scorer, 'record', { matchId: match.id, stepId: 'ok3', expectedVersion: 3, step: legalSteps(4)[3] })).toMatchObject({
      ok: true,
      version: 4,
    });
  });
});
