/**
 * The launcher's REST calls: create a match and list live ones. Errors come back as the server's
 * `{code, message, field?}` so the page can show the message as is.
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { SetupInput } from '../../../shared/protocol/setup';
import type { MatchSummary } from '../../../shared/protocol/wire';

export interface Created {
  id: string;
  scorerToken: string;
  version: number;
  urls: { scorer: string; overlay: string; dashboard: string; watch: string };
}

type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

async function call<T>(url: string, init: RequestInit): Promise<Result<T>> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    return { ok: false, error: { code: 'internal', message: `network: ${e instanceof Error ? e.message : String(e)}` } };
  }
  const body = (await res.json().catch(() => null)) as { error?: ApiError } | null;
  if (!res.ok) return { ok: false, error: body?.error ?? { code: 'internal', message: `HTTP ${res.status}` } };
  return { ok: true, value: body as T };
}

/** `POST /api/matches`; `adminToken` only when the server needs one. */
export function createMatch(setup: SetupInput, adminToken?: string): Promise<Result<Created>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (adminToken) headers.authorization = `Bearer ${adminToken}`;
  return call<Created>('/api/matches', { method: 'POST', headers, body: JSON.stringify(setup) });
}

/** `GET /api/matches`: newest first. */
export async function listMatches(): Promise<Result<MatchSummary[]>> {
  const r = await call<{ matches: MatchSummary[] }>('/api/matches', { method: 'GET' });
  return r.ok ? { ok: true, value: r.value.matches } : r;
}
