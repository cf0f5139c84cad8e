/**
 * The launcher's REST calls: create a match and list live ones. Errors come back as the server's
 * `{code, message, field?}` so the page can show the message as is.
 */
import type { SetupInput } from '../../../shared/protocol/setup';
import type { ShotClockSettingsBody } from '../../../shared/protocol/shot-clock';
import type { MatchSummary } from '../../../shared/protocol/wire';
import { call, jsonRequest, type Result } from '../lib/rest';

export interface Created {
  id: string;
  scorerToken: string;
  version: number;
  urls: { scorer: string; overlay: string; dashboard: string; watch: string };
}

/**
 * `POST /api/matches`; `adminToken` only when the server needs one; `clock` the match's shot clock (made with
 * the match, in the same request, so a refused clock makes no match).
 */
export function createMatch(setup: SetupInput, adminToken?: string, clock: ShotClockSettingsBody | null = null): Promise<Result<Created>> {
  return call<Created>('/api/matches', jsonRequest('POST', clock ? { ...setup, clock } : setup, adminToken));
}

/** `GET /api/matches`: newest first. */
export async function listMatches(): Promise<Result<MatchSummary[]>> {
  const r = await call<{ matches: MatchSummary[] }>('/api/matches', { method: 'GET' });
  return r.ok ? { ok: true, value: r.value.matches } : r;
}
