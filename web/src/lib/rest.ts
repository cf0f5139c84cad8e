/**
 * The pages' REST calls: JSON in and out, errors as the server's `{code, message, field?}` (or `internal`
 * naming the network failure) so a page can show the message as is.
 */
import type { ApiError } from '../../../shared/protocol/errors';

export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** `fetch(url, init)` and read its JSON answer. */
export async function call<T>(url: string, init: RequestInit): Promise<Result<T>> {
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

/** A JSON request with `Authorization: Bearer <token>` when a token is given. */
export function jsonRequest(method: string, body: unknown, token?: string | null): RequestInit {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
}

/** Put `text` on the clipboard (with the old `execCommand` fallback for plain-http LAN pages). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
}
