/**
 * What a store failure means for the step that was being written, and the health the server reports from it.
 *
 * - `StoreRefusal` (its `reason`): the store answered and wrote nothing (disk full, I/O error, Redis out of memory, a damaged
 *   match that accepts no more steps). The step is refused (`store-unavailable`); nothing was acknowledged, and
 *   the same step records as soon as the cause is gone.
 * - Any other rejection (a timeout, a connection lost mid-command): the store may or may not have written the
 *   step. The answer is `outcome-unknown` ("retry with the same stepId"): the retry is recorded once.
 */

/** Why a store refused a write (the `cause` logged and shown in `/healthz`). */
export type RefusalCause = 'disk-full' | 'io-error' | 'out-of-memory' | 'damaged' | 'read-only' | 'store-error';

/** A store failure known to have written nothing. `reason` says why; `message` says what the store answered. */
export class StoreRefusal extends Error {
  readonly reason: RefusalCause;
  constructor(reason: RefusalCause, message: string) {
    super(message);
    this.name = 'StoreRefusal';
    this.reason = reason;
  }
}

/** The refusal cause of a SQLite error code (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`, …). */
export function sqliteCause(code: string | undefined): RefusalCause {
  if (!code) return 'store-error';
  if (code === 'SQLITE_FULL') return 'disk-full';
  if (code.startsWith('SQLITE_IOERR')) return 'io-error';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'damaged';
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) return 'read-only';
  return 'store-error';
}

/** A damaged part of the store, served up to its last good step (`/healthz` detail). */
export interface Damage {
  /** `match` (a step row or the match row) or `event` (an event document). */
  kind: 'match' | 'event';
  id: string;
  /** For a match: the first version that cannot be read (the match is served up to the one before). */
  version?: number;
  reason: string;
}

/** Health of the store as `/healthz` reports it: damage found, and store refusals since the last good write. */
export class StoreHealth {
  private readonly damage = new Map<string, Damage>();
  private refusal: { cause: RefusalCause; message: string; at: number; count: number } | null = null;
  private refusals = 0;

  constructor(private readonly onReport?: (what: string, detail: Record<string, unknown>) => void) {}

  /** Note a damaged row (logged once per match or event). */
  damaged(d: Damage): void {
    const key = `${d.kind}:${d.id}`;
    const was = this.damage.get(key);
    if (was && (was.version ?? 0) <= (d.version ?? 0)) return;
    this.damage.set(key, d);
    this.onReport?.('damaged data in the store; served up to the last good step', { ...d });
  }

  /** Note a write the store refused (logged every time, with its cause). */
  refused(cause: RefusalCause, message: string, at: number): void {
    this.refusals++;
    this.refusal = { cause, message, at, count: (this.refusal?.count ?? 0) + 1 };
    this.onReport?.('the store refused a write', { cause, err: message });
  }

  /** A write went through: refusals are over. */
  wrote(): void {
    this.refusal = null;
  }

  /** True while the latest write was refused. */
  get failing(): boolean {
    return this.refusal !== null;
  }

  /** The `/healthz` detail: `damaged` rows, the current `refusing` streak, and all refusals since start. */
  detail(): { damaged: Damage[]; refusing: { cause: RefusalCause; message: string; since: number; count: number } | null; refusals: number } {
    const r = this.refusal;
    return { damaged: [...this.damage.values()], refusing: r && { cause: r.cause, message: r.message, since: r.at, count: r.count }, refusals: this.refusals };
  }
}

/**
 * The refusal `err` stands for, or null: a `StoreRefusal` itself; a SQLite error (`SQLITE_FULL`, `SQLITE_IOERR_*`,
 * `SQLITE_CORRUPT`, … from better-sqlite3, on a write or a read: SQLite rolls a failed statement back, so nothing
 * was written); or Redis's out-of-memory error reply (`OOM command not allowed when used memory > 'maxmemory'`,
 * to a command or a script's write), which Redis sends before it writes anything — a full Redis (`maxmemory`,
 * `noeviction`) refuses like a full disk.
 */
export function refusalOf(err: unknown): StoreRefusal | null {
  if (err instanceof StoreRefusal) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : '';
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return new StoreRefusal(sqliteCause(code), `${code}: ${message}`);
  // The reply itself starts with OOM; inside a script's error it is quoted ("… -OOM command not allowed …").
  return message.startsWith('OOM ') || message.includes('OOM command not allowed') ? new StoreRefusal('out-of-memory', message) : null;
}

/**
 * The wire error for a store failure `err`, or null when it is not a refusal (see `refusalOf`):
 * - `store-damaged` (HTTP 500) for damaged data: permanent, retrying never helps; the match or event is
 *   served up to its last good state and an operator restores it from a backup;
 * - `store-unavailable` (HTTP 503) for every other refusal (disk full, I/O error, Redis out of memory,
 *   read-only): nothing was written; the same request goes through once the cause is gone.
 * `what` names what was not done ("the step was not recorded").
 */
export function storeErrorOf(err: unknown, what = 'nothing was changed'): { code: 'store-damaged' | 'store-unavailable'; message: string } | null {
  const refusal = refusalOf(err);
  if (!refusal) return null;
  if (refusal.reason === 'damaged') {
    const message = `the stored data is damaged (${refusal.message}): ${what}; retrying will not help — restore the data from a backup`;
    return { code: 'store-damaged', message };
  }
  return { code: 'store-unavailable', message: `the store refused (${refusal.reason}): ${what}; retry later` };
}
