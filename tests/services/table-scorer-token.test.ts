/**
 * Table scorer tokens (issue 27 §4), through the services over every backend (memory, SQLite on a real disk, the
 * real Redis; skipped with a message when Redis does not answer, failed under CI=true): the organiser issues a
 * table's token; it records for the table's current match only (`not-current-match` naming `matchId` for any
 * other, except the retry of a step the match already holds, answered as recorded), follows the table when its next
 * match starts, is refused once revoked or replaced (`forbidden` naming `token`), and survives a restart (the hash
 * is in the event's stored document, never the token). The organiser token is needed to issue or revoke; an unknown
 * table is refused by name.
 */
import { describe, expect, it } from 'vitest';
import { hashToken, tableTokenParts } from '../../server/tokens';
import type { Stores } from '../../server/services';
import { stepsToWin } from '../helpers/events';
import { requireRedis } from '../helpers/redis';
import { services, type Services } from '../helpers/services';
import { storeKinds, suiteStores } from '../helpers/stores';

const redis = await requireRedis();

let seq = 0;
const stepId = () => `tt-${++seq}`;
const BREAK = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } } as const;

async function setUp(s: Services) {
  const created = await s.events.create({
    name: 'Tablets',
    date: '2026-03-13',
    defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
    tables: ['Table 1', 'Table 2'],
    roster: [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cy' }, { name: 'Di' }],
  });
  const ev = { id: created.event.id, token: created.organiserToken, players: created.event.roster.map((p) => p.id) };
  const one = await s.events.createTableMatch(ev.id, ev.token, 'table-1', { playerIds: [ev.players[0]!, ev.players[1]!], start: true });
  const two = await s.events.createTableMatch(ev.id, ev.token, 'table-2', { playerIds: [ev.players[2]!, ev.players[3]!], start: true });
  const next = await s.events.createTableMatch(ev.id, ev.token, 'table-1', { playerIds: [ev.players[0]!, ev.players[2]!] });
  if (!one.ok || !two.ok || !next.ok) throw new Error('set-up refused');
  return { ev, one: one.match, two: two.match, next: next.match };
}

describe.each(storeKinds(redis.available))('table scorer tokens: %s', (kind) => {
  const backend = suiteStores(kind, 'table-token', redis.url);

  it('records for the table current match only, follows the table, refuses revoked and replaced tokens', async () => {
    const s = services(backend.ports as Stores);
    const { ev, one, two, next } = await setUp(s);
    const issued = await s.events.issueTableToken(ev.id, ev.token, 'table-1');
    if (!issued.ok) throw new Error(issued.error.message);
    const token = issued.scorerToken;
    expect(tableTokenParts(token)).toEqual({ eventId: ev.id, table: 'table-1' });
    // The stored document keeps the hash only; the public view says a tablet token exists, never the hash.
    const stored = await backend.tournaments.loadTournament(ev.id);
    expect(stored!.tablets!['table-1']!.hash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const view = (await s.events.view(ev.id))!;
    expect(view.tablets).toEqual({ 'table-1': { issuedAt: s.clock.now() } });
    expect(JSON.stringify(view)).not.toContain(stored!.tablets!['table-1']!.hash);

    // Its table's current match: recorded; the token check says valid.
    const ok = await s.matches.record(one.id, token, { stepId: stepId(), step: BREAK });
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(await s.matches.tokenValid(one.id, token)).toBe(true);
    // Another table's match and the table's next match: refused by name, nothing recorded.
    for (const other of [two.id, next.id]) {
      const res = await s.matches.record(other, token, { stepId: stepId(), step: BREAK });
      expect(res).toMatchObject({ ok: false, error: { code: 'not-current-match', field: 'matchId' } });
      if (!res.ok) expect(res.error.message).toContain(one.id);
      expect(await s.matches.tokenValid(other, token)).toBe(false);
      expect((await s.matches.currentState(other))!.version).toBe(0);
    }

    // The shot clock's presses take the same token for the same match only (this match has no clock: past the token check).
    expect(await s.shotClocks.act(one.id, { scorerToken: token }, 'pause')).toMatchObject({ ok: false, error: { code: 'no-clock' } });
    expect(await s.shotClocks.act(two.id, { scorerToken: token }, 'pause')).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    // The match is won; the organiser starts the next match: the same token now scores it, and no longer the old one.
    let winning = { stepId: '', step: BREAK as unknown };
    for (const step of stepsToWin((await s.matches.currentState(one.id))!.setup).slice(1)) {
      winning = { stepId: stepId(), step };
      expect((await s.matches.record(one.id, token, winning)).ok).toBe(true);
    }
    const won = (await s.matches.currentState(one.id))!.version;
    expect((await s.events.start(ev.id, ev.token, 'table-1')).ok).toBe(true);
    expect((await s.matches.record(next.id, token, { stepId: stepId(), step: BREAK })).ok).toBe(true);
    expect(await s.matches.record(one.id, token, { stepId: stepId(), step: { undo: true } })).toMatchObject({
      ok: false,
      error: { code: 'not-current-match', field: 'matchId' },
    });
    // The retry of the winning step (its first answer lost while the table moved on) is answered as recorded.
    expect(await s.matches.record(one.id, token, winning)).toMatchObject({ ok: true, duplicate: true, version: won });
    // Under the same stepId, another step is still refused: the id names the step recorded.
    expect(await s.matches.record(one.id, token, { stepId: winning.stepId, step: { undo: true } })).toMatchObject({
      ok: false,
      error: { code: 'step-id-reused' },
    });

    // A restart (a second opening of the same backend): the token still works.
    // (From here on only the restarted services are used, as after a real restart.)
    const again = services((await backend.reopen()) as Stores);
    expect((await again.matches.record(next.id, token, { stepId: stepId(), step: { shot: { call: { made: false } } } })).ok).toBe(true);

    // Re-issued: the old token is refused at once, the new one works.
    const renewed = await again.events.issueTableToken(ev.id, ev.token, 'table-1');
    if (!renewed.ok) throw new Error(renewed.error.message);
    expect(renewed.scorerToken).not.toBe(token);
    const old = await again.matches.record(next.id, token, { stepId: stepId(), step: { undo: true } });
    expect(old).toMatchObject({ ok: false, error: { code: 'forbidden', field: 'token' } });
    if (!old.ok) expect(old.error.message).toMatch(/revoked or replaced/);
    expect((await again.matches.record(next.id, renewed.scorerToken, { stepId: stepId(), step: { undo: true } })).ok).toBe(true);

    // Revoked: refused; the public view no longer lists the tablet.
    const revoked = await again.events.revokeTableToken(ev.id, ev.token, 'table-1');
    expect(revoked.ok).toBe(true);
    expect(await again.matches.record(next.id, renewed.scorerToken, { stepId: stepId(), step: { undo: true } })).toMatchObject({
      ok: false,
      error: { code: 'forbidden', field: 'token' },
    });
    expect((await again.events.view(ev.id))!.tablets).toBeUndefined();
    expect(await again.matches.tokenValid(next.id, renewed.scorerToken)).toBe(false);
  });

  it('refuses to issue without the organiser token and for an unknown table or event, naming the field', async () => {
    const s = services(backend.ports as Stores);
    const { ev } = await setUp(s);
    expect(await s.events.issueTableToken(ev.id, undefined, 'table-1')).toMatchObject({ ok: false, error: { code: 'unauthorized', field: 'token' } });
    expect(await s.events.issueTableToken(ev.id, 'nope', 'table-1')).toMatchObject({ ok: false, error: { code: 'forbidden', field: 'token' } });
    expect(await s.events.issueTableToken(ev.id, ev.token, 'table-9')).toMatchObject({ ok: false, error: { code: 'not-found', field: 'table' } });
    expect(await s.events.revokeTableToken(ev.id, ev.token, 'table-9')).toMatchObject({ ok: false, error: { code: 'not-found', field: 'table' } });
    expect(await s.events.issueTableToken('nobody', ev.token, 'table-1')).toMatchObject({ ok: false, error: { code: 'not-found', field: 'eventId' } });
    expect((await backend.tournaments.loadTournament(ev.id))!.tablets).toBeUndefined();
    // A made-up token shaped like a table token: refused as a token, not as a match.
    const fake = `${ev.id}.table-1.${'x'.repeat(32)}`;
    const { one } = await setUp(s);
    expect(await s.matches.record(one.id, fake, { stepId: stepId(), step: BREAK })).toMatchObject({ ok: false, error: { code: 'forbidden', field: 'token' } });
  });
});
