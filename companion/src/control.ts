/**
 * The module's logic, free of Companion: follow one table of a cuecast event and drive it (issue 20).
 * - Following: the pages' live client (web/src/lib/client.ts over Socket.IO, WebSocket only) subscribes to the table
 *   (`subscribeTable`, then its `table` pushes), watches the table's current match (state only: `watchScorebug`) and
 *   its shot clock (`shotClock` answer and pushes, the server's time from `time` round trips), and switches by itself
 *   when the table's current match changes. The clock's shown seconds come from `tickShotClock` (shared/shot-clock.ts
 *   `shownSeconds`): one timer to the next change of the shown second while the clock runs, none otherwise.
 * - Values: ./values.ts computes the variables and feedback states; `onValues` hears only the variables that changed.
 * - Actions: the organiser's REST routes of the table with `Authorization: Bearer <organiser token>` (cards, caption,
 *   clock, start next match, undo that start). A refusal rejects with `ActionError`, the server's own words.
 * - Token: the reads are public; the organiser token is checked (`GET …/organiser-check`) on every connect until the
 *   server accepts it, so a wrong token shows as the connection's status before any button is pressed.
 */
import { CARD_ACTIONS, type CardAction, type TableState } from '../../shared/protocol/event';
import type { ApiError } from '../../shared/protocol/errors';
import { CLOCK_ACTIONS, type ShotClockAction, type ShotClockView } from '../../shared/shot-clock';
import { createClient, type LiveClient } from '../../web/src/lib/client';
import { tickShotClock } from '../../web/src/lib/live-clock';
import { roomClient } from '../../web/src/lib/live-rooms';
import type { CuecastConfig } from './config';
import { changedValues, variableValues, type Followed, type VariableValues } from './values';

/** How the connection stands: connecting, following the table (`ok`), lost (reconnecting by itself), or refused (`message` says why: wrong token, unknown event or table). */
export type ControlStatus = { kind: 'connecting' } | { kind: 'ok' } | { kind: 'offline'; message: string } | { kind: 'refused'; message: string };

/** An action the server refused (or could not be asked): its error code (`network` when unreachable) and words. */
export class ActionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

/** The card actions offered as buttons (the caption has its own action). */
export const CARD_BUTTONS: readonly CardAction[] = CARD_ACTIONS.filter((a) => !a.startsWith('caption-'));
/** The caption actions, by what they do to the overlay's caption line. */
export const CAPTION_MODES = { show: 'caption-show', hide: 'caption-hide', toggle: 'caption-toggle' } as const satisfies Record<string, CardAction>;
export type CaptionMode = keyof typeof CAPTION_MODES;

/** How long an action waits for the server (ms). */
const ACTION_TIMEOUT_MS = 5000;

/**
 * One followed table. `start()` connects; `stop()` closes everything (no timer or socket left). Listeners:
 * `onValues` (changed variables, after every change of what is followed; the first call has them all), `onStatus`.
 */
export class CuecastControl {
  private client: LiveClient | null = null;
  private stopTable: (() => void) | null = null;
  private stopMatch: (() => void) | null = null;
  private stopTick: (() => void) | null = null;
  private followed: Followed = { table: null, match: null, clock: null };
  private sent: VariableValues | null = null;
  private statusNow: ControlStatus = { kind: 'connecting' };
  private tokenChecked = false;
  /** The table subscription's refusal (unknown event or table), cleared by the next table state. */
  private tableError: ApiError | null = null;
  /** The token check's refusal (wrong token, unknown event). */
  private tokenError: ApiError | null = null;
  private readonly valueListeners = new Set<(changed: Partial<VariableValues>) => void>();
  private readonly statusListeners = new Set<(s: ControlStatus) => void>();

  constructor(readonly config: CuecastConfig) {}

  /** What is followed now (table, current match, clock as shown). */
  get state(): Readonly<Followed> {
    return this.followed;
  }

  /** Every variable's value now. */
  get values(): VariableValues {
    return variableValues(this.followed);
  }

  get status(): ControlStatus {
    return this.statusNow;
  }

  /** Hear the variables that changed (the first call after `onValues` is registered comes with the next change). Returns the function that stops. */
  onValues(cb: (changed: Partial<VariableValues>) => void): () => void {
    this.valueListeners.add(cb);
    return () => this.valueListeners.delete(cb);
  }

  /** Hear every change of the status. Returns the function that stops. */
  onStatus(cb: (s: ControlStatus) => void): () => void {
    this.statusListeners.add(cb);
    return () => this.statusListeners.delete(cb);
  }

  /** Connect and follow the table. Calling it again does nothing. */
  start(): void {
    if (this.client) return;
    const client = createClient({ url: this.config.url });
    this.client = client;
    client.onStatus((s) => {
      if (s === 'live') void this.checkToken();
      this.updateStatus();
    });
    this.stopTable = roomClient(client).watchTable(
      this.config.eventId,
      this.config.table,
      (t) => this.table(t),
      (e) => {
        this.tableError = e;
        this.updateStatus();
      },
    );
    if (client.status === 'live') void this.checkToken();
  }

  /** Stop following: the socket closed, the clock's timer cleared. */
  stop(): void {
    this.stopTick?.();
    this.stopMatch?.();
    this.stopTable?.();
    this.client?.close();
    this.stopTick = this.stopMatch = this.stopTable = null;
    this.client = null;
  }

  /** Press a card action on the table's overlay (`intro`, `summary`, `hide`, `toggle-intro`, …: `CARD_ACTIONS`). */
  async card(action: CardAction): Promise<void> {
    if (!(CARD_ACTIONS as readonly string[]).includes(action))
      throw new ActionError('invalid-request', `card action: "${action}" is not one of ${CARD_ACTIONS.join(', ')}`);
    await this.post(`cards/${action}`);
  }

  /** Show, hide or toggle the overlay's caption line. */
  async caption(mode: CaptionMode): Promise<void> {
    const action = CAPTION_MODES[mode];
    if (!action) throw new ActionError('invalid-request', `caption: "${mode}" is not one of ${Object.keys(CAPTION_MODES).join(', ')}`);
    await this.post(`cards/${action}`);
  }

  /**
   * Press `action` on the current match's shot clock, meant for the clock period shown now (a press that arrives
   * after the next shot was recorded changes nothing). Refusals: `no-clock`, `clock-expired`, `no-extension-left`,
   * `match-over`, `not-found` (no match on the table).
   */
  async clock(action: ShotClockAction): Promise<void> {
    if (!CLOCK_ACTIONS.includes(action)) throw new ActionError('invalid-request', `clock action: "${action}" is not one of ${CLOCK_ACTIONS.join(', ')}`);
    const period = this.followed.clock?.view.shot;
    await this.post(`clock/${action}`, period === undefined ? {} : { period });
  }

  /** Put the table's next match on (the current one, finished or not, leaves; undoable for 5 minutes). */
  async startNext(): Promise<void> {
    await this.post('start');
  }

  /** Undo the last *Start next match* within 5 minutes (the match it took off is back on the table). */
  async undoStart(): Promise<void> {
    await this.post('undo-start');
  }

  private async post(path: string, body: object = {}): Promise<unknown> {
    const { url, eventId, table, token } = this.config;
    let res: Response;
    try {
      res = await fetch(`${url}/api/events/${eventId}/tables/${table}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(ACTION_TIMEOUT_MS),
      });
    } catch (e) {
      throw new ActionError('network', `cuecast server ${url} not reachable: ${(e as Error).message}`);
    }
    const json = (await res.json().catch(() => null)) as { error?: ApiError } | null;
    if (!res.ok) {
      const err = json?.error;
      throw new ActionError(err?.code ?? 'http', err ? err.message : `HTTP ${res.status} from ${path}`);
    }
    return json;
  }

  /** Ask the server whether the organiser token is this event's (once it answered yes, not again). */
  private async checkToken(): Promise<void> {
    if (this.tokenChecked) return;
    const { url, eventId, token } = this.config;
    try {
      const res = await fetch(`${url}/api/events/${eventId}/organiser-check`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(ACTION_TIMEOUT_MS),
      });
      const json = (await res.json().catch(() => null)) as { valid?: boolean; error?: ApiError } | null;
      if (res.status === 404) this.tokenError = json?.error ?? { code: 'not-found', message: `event ${eventId} not found` };
      else if (json?.valid === true) {
        this.tokenChecked = true;
        this.tokenError = null;
      } else if (json?.valid === false)
        this.tokenError = { code: 'forbidden', message: `the organiser token is not valid for event ${eventId}`, field: 'token' };
    } catch {
      // Unreachable: the socket's own status says so; checked again on the next connect.
    }
    this.updateStatus();
  }

  private updateStatus(): void {
    const live = this.client?.status;
    let next: ControlStatus;
    const refusal = this.tokenError ?? this.tableError;
    if (refusal) next = { kind: 'refused', message: refusal.message };
    else if (live === 'offline') next = { kind: 'offline', message: `cuecast server ${this.config.url} not reachable; reconnecting` };
    else if (live === 'live' && this.tokenChecked && this.followed.table) next = { kind: 'ok' };
    else next = { kind: 'connecting' };
    if (JSON.stringify(next) === JSON.stringify(this.statusNow)) return;
    this.statusNow = next;
    for (const cb of [...this.statusListeners]) cb(next);
  }

  /** A table state: keep it; follow its current match when that changed. */
  private table(t: TableState): void {
    this.tableError = null;
    const before = this.followed.table?.current ?? null;
    this.followed = { ...this.followed, table: t };
    if (t.current !== before || (t.current && !this.stopMatch)) this.follow(t.current);
    this.updateStatus();
    this.emit();
  }

  /** Follow match `matchId` (null: none) instead of the one followed before. */
  private follow(matchId: string | null): void {
    this.stopTick?.();
    this.stopMatch?.();
    this.stopTick = this.stopMatch = null;
    this.followed = { ...this.followed, match: null, clock: null };
    const client = this.client;
    if (!matchId || !client) return;
    const stopState = client.watchScorebug(matchId, (feed) => {
      if (this.followed.table?.current !== feed.matchId) return;
      this.followed = { ...this.followed, match: { matchId: feed.matchId, version: feed.version, setup: feed.setup, state: feed.state } };
      this.emit();
    });
    const stopClock = client.watchShotClock(matchId, (view) => this.clockView(matchId, view));
    this.stopMatch = () => {
      stopClock();
      stopState();
    };
  }

  /** A new view of the followed match's clock: show it now and at every change of its shown second. */
  private clockView(matchId: string, view: ShotClockView | null): void {
    if (this.followed.table?.current !== matchId || !this.client) return;
    this.stopTick?.();
    this.stopTick = tickShotClock(view, this.client.serverTime, (shown) => {
      this.followed = { ...this.followed, clock: shown };
      this.emit();
    });
  }

  /** Tell the listeners what changed since the last time. */
  private emit(): void {
    const now = variableValues(this.followed);
    const changed = changedValues(this.sent, now);
    this.sent = now;
    if (Object.keys(changed).length === 0) return;
    for (const cb of [...this.valueListeners]) cb(changed);
  }
}
