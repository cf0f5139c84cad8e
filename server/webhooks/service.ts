/**
 * Webhooks (issue 27 §6): an organiser registers a URL for an event; each of the event's happenings — a match
 * started on a table, a match won, the draw changed, the draw decided — is POSTed to it as JSON
 * (`WebhookPayload`), signed with HMAC-SHA256 of the exact body under the hook's secret in `X-Cuecast-Signature:
 * sha256=<hex>`, and retried with exponential back-off (1 s, 2 s, 4 s … up to `maxAttempts` tries, each under a
 * timeout) when the receiver fails (a network error, a timeout, an answer other than 2xx).
 *
 * Never in the path of a recorded shot: `emit` only puts a delivery in a queue in memory and returns; the
 * deliveries run later, one at a time per hook (in order), on timers. A hook's status (last success, failures
 * in a row, last error, deliveries given up) is kept in the store after each attempt, so the organiser page
 * shows a hook that keeps failing. A queue holds at most `queueMax` deliveries per hook (the oldest given up
 * beyond that). Deliveries still queued when the server stops are not sent (the status says what was last tried).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { webhookAddSchema } from '../protocol/results-schemas';
import { SIGNATURE_HEADER, WEBHOOK_LIMITS, type WebhookInfo, type WebhookKind, type WebhookPayload, type WebhookStatus } from '../../shared/protocol/webhooks';
import type { Clock } from '../clock';
import { fail, type Failure } from '../failure';
import { parseEventBody } from '../protocol/event-schemas';
import { RulesError } from '../../shared/protocol/errors';
import type { StoredWebhook, StoredWebhookWithStatus, WebhookStore } from '../storage/webhook-store';

export interface WebhookServiceOptions {
  store: WebhookStore;
  log: Logger;
  clock: Clock;
  /** `unauthorized` / `forbidden` / `not-found` for `token` on the event, or null for its organiser (EventService.tokenValid). */
  tokenValid(eventId: string, token: string): Promise<boolean | null>;
  /** First retry after this many ms; each next one waits twice as long (default 1000). */
  retryBaseMs?: number;
  /** Longest wait between two tries, ms (default 5 minutes). */
  retryMaxMs?: number;
  /** Tries per delivery before it is given up (default 8: about 2 minutes of retries). */
  maxAttempts?: number;
  /** A receiver that has not answered within this many ms has failed this try (default 5000). */
  timeoutMs?: number;
  /** Deliveries queued per hook at most (default 1000). */
  queueMax?: number;
}

/** One delivery to one hook. */
interface Delivery {
  eventId: string;
  hook: StoredWebhook;
  kind: WebhookKind;
  body: string;
  id: string;
  attempts: number;
}

/** The sha256 HMAC of `body` under `secret`, as the signature header carries it (`sha256=<hex>`). */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export class WebhookService {
  private readonly queues = new Map<string, Delivery[]>();
  private readonly busy = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;
  /** Aborts the deliveries in flight on close. */
  private readonly stop = new AbortController();
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly queueMax: number;

  constructor(private readonly opts: WebhookServiceOptions) {
    this.retryBaseMs = opts.retryBaseMs ?? 1000;
    this.retryMaxMs = opts.retryMaxMs ?? 5 * 60_000;
    this.maxAttempts = opts.maxAttempts ?? 8;
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.queueMax = opts.queueMax ?? 1000;
  }

  private async organiserFailure(eventId: string, token: string | undefined): Promise<Failure | null> {
    const valid = await this.opts.tokenValid(eventId, token ?? '');
    if (valid === null) return fail('not-found', `eventId: no event "${eventId}"`, 'eventId');
    if (token === undefined || token === '') return fail('unauthorized', "this needs the event's organiser token (Authorization: Bearer …)", 'token');
    return valid ? null : fail('forbidden', 'this token is not the organiser token of this event', 'token');
  }

  /**
   * Register a hook from an untrusted body (`{url}`): an http(s) URL, at most WEBHOOK_LIMITS.perEvent per
   * event. @returns the hook and its signing secret (shown this once), or a refusal naming the field
   * (`invalid-webhook` naming `url`; auth failures).
   */
  async register(eventId: string, token: string | undefined, body: unknown): Promise<{ ok: true; webhook: WebhookInfo; secret: string } | Failure> {
    const denied = await this.organiserFailure(eventId, token);
    if (denied) return denied;
    let url: string;
    try {
      url = parseEventBody(webhookAddSchema, body, 'invalid-webhook').url;
    } catch (err) {
      if (err instanceof RulesError) return { ok: false, error: err.toJSON() };
      throw err;
    }
    const bad = urlProblem(url);
    if (bad) return fail('invalid-webhook', `url: ${bad}`, 'url');
    const hook: StoredWebhook = {
      id: `h${randomBytes(6).toString('hex')}`,
      url,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: this.opts.clock.now(),
    };
    if (!(await this.opts.store.add(eventId, hook, WEBHOOK_LIMITS.perEvent)))
      return fail('invalid-webhook', `url: an event has at most ${WEBHOOK_LIMITS.perEvent} webhooks; remove one first`, 'url');
    this.opts.log.info({ eventId, hook: hook.id, url }, 'webhook registered');
    const [info] = (await this.opts.store.list(eventId)).filter((h) => h.id === hook.id).map(infoOf);
    return { ok: true, webhook: info!, secret: hook.secret };
  }

  /** The event's hooks and their status (organiser only). */
  async list(eventId: string, token: string | undefined): Promise<{ ok: true; webhooks: WebhookInfo[] } | Failure> {
    const denied = await this.organiserFailure(eventId, token);
    if (denied) return denied;
    return { ok: true, webhooks: (await this.opts.store.list(eventId)).map(infoOf) };
  }

  /** Remove a hook (its queued deliveries are not sent). */
  async remove(eventId: string, token: string | undefined, id: string): Promise<{ ok: true } | Failure> {
    const denied = await this.organiserFailure(eventId, token);
    if (denied) return denied;
    if (!(await this.opts.store.remove(eventId, id))) return fail('not-found', `hookId: no webhook "${id}" on this event`, 'hookId');
    this.queues.delete(`${eventId}/${id}`);
    return { ok: true };
  }

  /**
   * Something happened on event `eventId`: queue one delivery to each of its hooks. Returns at once (the hooks
   * are read and the deliveries sent later); never throws.
   */
  emit(eventId: string, kind: WebhookKind, data: Record<string, unknown>): void {
    if (this.closed) return;
    const at = new Date(this.opts.clock.now()).toISOString();
    const job = (async () => {
      try {
        const hooks = await this.opts.store.list(eventId);
        for (const hook of hooks) {
          const id = randomUUID();
          const payload: WebhookPayload = { id, type: kind, eventId, at, data };
          this.enqueue({ eventId, hook, kind, body: JSON.stringify(payload), id, attempts: 0 });
        }
      } catch (err) {
        this.opts.log.warn({ eventId, kind, err: (err as Error).message }, 'webhooks: could not read the hooks');
      }
    })();
    this.track(job);
  }

  private track(p: Promise<void>): void {
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  private enqueue(d: Delivery): void {
    const key = `${d.eventId}/${d.hook.id}`;
    const q = this.queues.get(key) ?? [];
    q.push(d);
    if (q.length > this.queueMax) {
      const dropped = q.shift()!;
      this.opts.log.warn({ eventId: d.eventId, hook: d.hook.id, delivery: dropped.id }, 'webhooks: queue full, the oldest delivery given up');
    }
    this.queues.set(key, q);
    this.pump(key);
  }

  /** Send the next delivery of hook `key` unless one is in flight or waiting for its retry. */
  private pump(key: string): void {
    if (this.closed || this.busy.has(key)) return;
    const q = this.queues.get(key);
    const d = q?.[0];
    if (!d) {
      this.queues.delete(key);
      return;
    }
    this.busy.add(key);
    this.track(this.attempt(key, d));
  }

  private async attempt(key: string, d: Delivery): Promise<void> {
    d.attempts++;
    const error = await this.send(d);
    const prev = (await this.opts.store.list(d.eventId).catch(() => [])).find((h) => h.id === d.hook.id)?.status;
    const now = this.opts.clock.now();
    const q = this.queues.get(key);
    let status: WebhookStatus;
    let retryIn: number | null = null;
    if (error === null) {
      status = { lastSuccess: now, lastAttempt: now, consecutiveFailures: 0, lastError: null, dropped: prev?.dropped ?? 0 };
      q?.shift();
    } else {
      const gaveUp = d.attempts >= this.maxAttempts;
      status = {
        lastSuccess: prev?.lastSuccess ?? null,
        lastAttempt: now,
        consecutiveFailures: (prev?.consecutiveFailures ?? 0) + 1,
        lastError: error,
        dropped: (prev?.dropped ?? 0) + (gaveUp ? 1 : 0),
      };
      if (gaveUp) {
        q?.shift();
        this.opts.log.warn({ eventId: d.eventId, hook: d.hook.id, delivery: d.id, attempts: d.attempts, err: error }, 'webhooks: delivery given up');
      } else retryIn = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (d.attempts - 1));
    }
    if (prev)
      await this.opts.store
        .setStatus(d.eventId, d.hook.id, status)
        .catch((err: Error) => this.opts.log.warn({ err: err.message }, 'webhooks: status not kept'));
    if (!prev) this.queues.delete(key); // removed meanwhile
    if (retryIn === null) {
      this.busy.delete(key);
      this.pump(key);
      return;
    }
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.busy.delete(key);
      this.pump(key);
    }, retryIn);
    t.unref();
    this.timers.add(t);
  }

  /** POST one delivery; @returns null on a 2xx answer, else what went wrong. */
  private async send(d: Delivery): Promise<string | null> {
    try {
      const res = await fetch(d.hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'cuecast-webhooks/1',
          'x-cuecast-event': d.kind,
          'x-cuecast-delivery': d.id,
          [SIGNATURE_HEADER.toLowerCase()]: signature(d.hook.secret, d.body),
        },
        body: d.body,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.stop.signal]),
      });
      await res.body?.cancel().catch(() => undefined);
      return res.ok ? null : `HTTP ${res.status}`;
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      if (this.closed) return 'the server stopped before the receiver answered';
      if (e.name === 'TimeoutError' || e.name === 'AbortError') return `timed out after ${this.timeoutMs} ms`;
      if (e.cause?.code) return `${e.cause.code}${e.cause.message ? `: ${e.cause.message}` : ''}`;
      return e.cause?.message ? `${e.message}: ${e.cause.message}` : e.message;
    }
  }

  /** Stop: nothing new is sent, retries waiting are dropped, deliveries in flight are cut off; resolves when they have ended. */
  async close(): Promise<void> {
    this.closed = true;
    this.stop.abort();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}

/** Why `url` cannot be a webhook (not a URL, not http(s), credentials in it), or null. */
export function urlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url.slice(0, 80)}" is not a URL (give an http:// or https:// address)`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `a webhook URL is http:// or https://, not ${u.protocol}//`;
  if (u.username || u.password) return 'a webhook URL carries no user name or password (each delivery is signed instead)';
  return null;
}

function infoOf(h: StoredWebhookWithStatus): WebhookInfo {
  return { id: h.id, url: h.url, createdAt: h.createdAt, status: h.status };
}
