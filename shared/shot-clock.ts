/**
 * The shot clock and the match clock of one match, as a pure decider (docs/rules.md D-32).
 *
 * The seeds set no time limit; a match may use a shot clock as an option. It does not run for a break (D-32a): set
 * for a break it has no allowance and refuses to start; it starts for the first shot after the break, so an expired
 * clock always has a time foul the rules accept. The clock never changes the rules'
 * state or the score sheet: only a recorded time foul (`fouls: ["time"]`) does. Every function here takes the
 * server's time `now` (ms since the Unix epoch) as an argument: nothing reads a clock, so the server is the one
 * authority and every display computes the same second from the deadline and its estimate of the server's time
 * (`offsetFromSamples`).
 *
 * Shape: `ShotClockSettings` (per match, or an event's default), `ShotClock` (the state the server stores beside the
 * match), `decideShotClock` (an action from the console or a button box), `shotClockAfterStep` (a recorded step starts a new
 * clock period), `shotClockView` (what every display renders).
 */
import type { Pair, PlayerKey } from './protocol/setup';
import type { MatchState } from './protocol/state';

/** How long a player's extensions last: each rack, every N racks (14-1 racks are short), or the whole match. */
export type ExtensionPeriod = { per: 'rack' } | { per: 'racks'; racks: number } | { per: 'match' };

/** The match clock: off, the time played, or the time left of a time limit with a warning. */
export type MatchClockSettings = { kind: 'off' } | { kind: 'played' } | { kind: 'limit'; minutes: number; warningMinutes: number };

/** Settings of a match's shot clock. All durations in whole seconds. */
export interface ShotClockSettings {
  /** An ordinary shot (pro 9-ball: 30). */
  shotSeconds: number;
  /** The first shot after the break (pro 9-ball: 60). The break itself has no allowance (D-32a). */
  firstShotSeconds: number;
  /** The shot after a push out (pro 9-ball: 60). */
  pushOutSeconds: number;
  /** What one extension adds (pro 9-ball: 30). */
  extensionSeconds: number;
  /** Extensions each player may take per period (0: none). */
  extensionsPerPlayer: number;
  extensionPeriod: ExtensionPeriod;
  /** The warning from this many seconds left (displays turn amber, the console beeps). */
  warningSeconds: number;
  /** The last warning from this many seconds left (displays turn red). */
  urgentSeconds: number;
  /** Shown on air always (null) or only from this many seconds left. */
  showFromSeconds: number | null;
  /** Start by itself when a shot is recorded; false: the referee starts it when the balls stop. */
  autoStart: boolean;
  matchClock: MatchClockSettings;
}

/** Named presets offered by the console, the organiser's page and REST. `off` means no clock (null settings). */
export const CLOCK_PRESETS = {
  /** Pro 9-ball style: 60 s for the first shot after the break or after a push out, 30 s after that, one 30 s extension per player per rack, on air from 10 s; no clock for the break (D-32a). */
  pro: {
    shotSeconds: 30,
    firstShotSeconds: 60,
    pushOutSeconds: 60,
    extensionSeconds: 30,
    extensionsPerPlayer: 1,
    extensionPeriod: { per: 'rack' },
    warningSeconds: 10,
    urgentSeconds: 5,
    showFromSeconds: 10,
    autoStart: false,
    matchClock: { kind: 'played' },
  },
  /** League: 45 s for every shot after the break, one 45 s extension per player per match, always on air; no clock for the break (D-32a). */
  league: {
    shotSeconds: 45,
    firstShotSeconds: 45,
    pushOutSeconds: 45,
    extensionSeconds: 45,
    extensionsPerPlayer: 1,
    extensionPeriod: { per: 'match' },
    warningSeconds: 10,
    urgentSeconds: 5,
    showFromSeconds: null,
    autoStart: false,
    matchClock: { kind: 'played' },
  },
} as const satisfies Record<string, ShotClockSettings>;

export type ShotClockPreset = keyof typeof CLOCK_PRESETS | 'off';

/** The largest duration a setting may take, in seconds (an hour: no shot takes longer). */
export const CLOCK_SECONDS_MAX = 3600;

/** Which allowance the coming shot has; `break`: none, the clock does not run for a break (D-32a). */
export type AllowanceKind = 'break' | 'first-shot' | 'push-out' | 'shot';

/** idle: set for the coming shot, not started; running: counting to `deadline`; paused: `remainingMs` kept; expired: ran out. */
export type ShotClockStatus = 'idle' | 'running' | 'paused' | 'expired';

/** The match clock's state: time accumulated while stopped plus the running stretch since `since`. */
export interface MatchClockState {
  /** ms played before `since`. */
  playedMs: number;
  /** Server time the current running stretch began; null while stopped. */
  since: number | null;
  /** True once the match is won: the match clock stays where it stopped. */
  final: boolean;
}

/** The stored state of a match's clock. */
export interface ShotClock {
  status: ShotClockStatus;
  /** Server time (ms) the running clock reaches zero; null unless running. */
  deadline: number | null;
  /** ms left while idle or paused (idle: the whole allowance); 0 when expired; while running see `deadline`. */
  remainingMs: number;
  /** The coming shot's allowance in ms, extensions included. */
  allowanceMs: number;
  kind: AllowanceKind;
  /** The player the clock runs for (the player at the table). */
  shooter: PlayerKey;
  /** Extensions used in the current period, A first. */
  extensionsUsed: Pair<number>;
  /** Index of the extension period (see `ExtensionPeriod`). */
  period: number;
  /**
   * The clock period: one per shot (it grows with every recorded step and every undo). A button press names the
   * period it was meant for; a press for an earlier period, or a repeat of what this period already did, changes
   * nothing.
   */
  shot: number;
  /** An extension was taken in this clock period. */
  extended: boolean;
  match: MatchClockState;
}

/** What the console, a button box or REST asks of the clock. */
export type ShotClockAction = 'start' | 'pause' | 'resume' | 'reset' | 'extension';

export const CLOCK_ACTIONS: readonly ShotClockAction[] = ['start', 'pause', 'resume', 'reset', 'extension'];

/** Why a clock action was refused (`break-shot`: the clock does not run for a break, D-32a). */
export type ShotClockRefusal = 'clock-expired' | 'no-extension-left' | 'match-over' | 'break-shot';

/** The refusal of start, resume or extension while the clock is set for a break (D-32a). */
export const BREAK_SHOT_MESSAGE = 'the shot clock does not run for a break (D-32a): it starts for the first shot after the break';

/** The result of an action: the new clock (unchanged and `duplicate` for a harmless repeat), or a refusal. */
export type ShotClockDecision = { ok: true; clock: ShotClock; duplicate: boolean } | { ok: false; code: ShotClockRefusal; message: string };

const ms = (s: number): number => s * 1000;
const idx = (p: PlayerKey): 0 | 1 => (p === 'A' ? 0 : 1);

/** The allowance in ms of a shot of `kind` under `settings`: 0 for a break (no clock for it, D-32a). */
export function allowanceOf(settings: ShotClockSettings, kind: AllowanceKind): number {
  switch (kind) {
    case 'break':
      return 0;
    case 'first-shot':
      return ms(settings.firstShotSeconds);
    case 'push-out':
      return ms(settings.pushOutSeconds);
    default:
      return ms(settings.shotSeconds);
  }
}

/** The extension period a rack belongs to (racks count from 1). */
export function periodOf(settings: ShotClockSettings, rack: number): number {
  const p = settings.extensionPeriod;
  if (p.per === 'match') return 0;
  if (p.per === 'rack') return rack - 1;
  return Math.floor((rack - 1) / p.racks);
}

/**
 * Check settings: every duration a whole number of seconds in 1…3600 (extension and warnings may be 0), counts
 * whole and ≥ 0, the urgent warning not above the warning. Returns the first problem as `{field, message}` (the
 * field a dotted path under `clock`), or null. The server's schema checks the shape; this checks the meaning.
 */
export function shotClockSettingsProblem(s: ShotClockSettings): { field: string; message: string } | null {
  const whole = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;
  const secs: [keyof ShotClockSettings, number][] = [
    ['shotSeconds', 1],
    ['firstShotSeconds', 1],
    ['pushOutSeconds', 1],
    ['extensionSeconds', 0],
    ['warningSeconds', 0],
    ['urgentSeconds', 0],
  ];
  for (const [k, min] of secs) {
    if (!whole(s[k] as number, min, CLOCK_SECONDS_MAX))
      return { field: `clock.${k}`, message: `must be a whole number of seconds from ${min} to ${CLOCK_SECONDS_MAX}` };
  }
  if (!whole(s.extensionsPerPlayer, 0, 99)) return { field: 'clock.extensionsPerPlayer', message: 'must be a whole number from 0 to 99' };
  if (s.extensionPeriod.per === 'racks' && !whole(s.extensionPeriod.racks, 1, 999))
    return { field: 'clock.extensionPeriod.racks', message: 'must be a whole number of racks from 1 to 999' };
  if (s.urgentSeconds > s.warningSeconds) return { field: 'clock.urgentSeconds', message: `must not be above warningSeconds (${s.warningSeconds})` };
  if (s.showFromSeconds !== null && !whole(s.showFromSeconds, 1, CLOCK_SECONDS_MAX))
    return { field: 'clock.showFromSeconds', message: `must be null (always on air) or a whole number of seconds from 1 to ${CLOCK_SECONDS_MAX}` };
  const m = s.matchClock;
  if (m.kind === 'limit') {
    if (!whole(m.minutes, 1, 24 * 60)) return { field: 'clock.matchClock.minutes', message: 'must be a whole number of minutes from 1 to 1440' };
    if (!whole(m.warningMinutes, 0, m.minutes))
      return { field: 'clock.matchClock.warningMinutes', message: `must be a whole number of minutes from 0 to ${m.minutes}` };
  }
  return null;
}

/** The allowance kind of the coming shot, from the state after a step. */
function kindAt(state: MatchState, fallback: AllowanceKind): AllowanceKind {
  return state.breakShot ? 'break' : fallback;
}

/** A new clock for a match at `state` (idle, for the player at the table; the match clock not started). */
export function initialShotClock(settings: ShotClockSettings, state: MatchState): ShotClock {
  const kind = kindAt(state, 'shot');
  const allowanceMs = allowanceOf(settings, kind);
  return {
    status: 'idle',
    deadline: null,
    remainingMs: allowanceMs,
    allowanceMs,
    kind,
    shooter: state.turn,
    extensionsUsed: [0, 0],
    period: periodOf(settings, state.rack),
    shot: 0,
    extended: false,
    match: { playedMs: 0, since: null, final: false },
  };
}

/** A running clock whose deadline has passed becomes expired; anything else is returned as it is. */
export function settleShotClock(clock: ShotClock, now: number): ShotClock {
  if (clock.status !== 'running' || clock.deadline === null || now < clock.deadline) return clock;
  return { ...clock, status: 'expired', deadline: null, remainingMs: 0 };
}

function runMatchClock(m: MatchClockState, now: number): MatchClockState {
  return m.final || m.since !== null ? m : { ...m, since: now };
}

function stopMatchClock(m: MatchClockState, now: number, final = m.final): MatchClockState {
  if (m.since === null) return final === m.final ? m : { ...m, final };
  return { playedMs: m.playedMs + Math.max(0, now - m.since), since: null, final };
}

const same = (clock: ShotClock): ShotClockDecision => ({ ok: true, clock, duplicate: true });
const changed = (clock: ShotClock): ShotClockDecision => ({ ok: true, clock, duplicate: false });

/**
 * Apply a clock action at server time `now`. `period`, when given, is the clock period (`ShotClock.shot`) the press
 * was meant for: a press for another period changes nothing (a late duplicate from a button box). A repeat of
 * what the clock already is (start while running, pause while paused, a second extension in one period) changes
 * nothing either. Refusals: `match-over` (the match is won), `break-shot` (start, resume or extension while the
 * clock is set for a break: it does not run for one, D-32a), `clock-expired` (start, resume or extension after the
 * clock ran out: record the time foul or the shot, or reset), `no-extension-left` (the shooter used every
 * extension of the period). A clock set for a break that was left running (stored before D-32a) is refused the
 * same way and reset goes back to idle.
 */
export function decideShotClock(
  settings: ShotClockSettings,
  before: ShotClock,
  action: ShotClockAction,
  now: number,
  winner: PlayerKey | null,
  period?: number,
): ShotClockDecision {
  if (winner) return { ok: false, code: 'match-over', message: 'the match is over: its clock is stopped' };
  const clock = settleShotClock(before, now);
  if (period !== undefined && period !== clock.shot) return same(clock);
  if (clock.kind === 'break' && (action === 'start' || action === 'resume' || action === 'extension')) {
    return { ok: false, code: 'break-shot', message: BREAK_SHOT_MESSAGE };
  }
  switch (action) {
    case 'start':
    case 'resume':
      if (clock.status === 'running') return same(clock);
      if (clock.status === 'expired')
        return { ok: false, code: 'clock-expired', message: `the clock ran out: record the time foul or the shot, or reset the clock` };
      return changed({ ...clock, status: 'running', deadline: now + clock.remainingMs, match: runMatchClock(clock.match, now) });
    case 'pause':
      if (clock.status !== 'running') return same(clock);
      return changed({
        ...clock,
        status: 'paused',
        deadline: null,
        remainingMs: Math.max(0, (clock.deadline ?? now) - now),
        match: stopMatchClock(clock.match, now),
      });
    case 'reset':
      if (clock.status === 'idle' && clock.remainingMs === clock.allowanceMs) return same(clock);
      return changed({ ...clock, status: 'idle', deadline: null, remainingMs: clock.allowanceMs });
    case 'extension': {
      if (clock.extended) return same(clock);
      if (clock.status === 'expired') return { ok: false, code: 'clock-expired', message: 'the clock ran out: an extension must be taken before time is up' };
      const i = idx(clock.shooter);
      if (clock.extensionsUsed[i] >= settings.extensionsPerPlayer) {
        const what =
          settings.extensionsPerPlayer === 0
            ? 'this match has no extensions'
            : `player ${clock.shooter} has used ${settings.extensionsPerPlayer === 1 ? 'the extension' : `all ${settings.extensionsPerPlayer} extensions`} of this ${periodWord(settings)}`;
        return { ok: false, code: 'no-extension-left', message: `no extension left: ${what}` };
      }
      const add = ms(settings.extensionSeconds);
      const used: Pair<number> = [...clock.extensionsUsed];
      used[i] += 1;
      return changed({
        ...clock,
        extended: true,
        extensionsUsed: used,
        allowanceMs: clock.allowanceMs + add,
        deadline: clock.deadline === null ? null : clock.deadline + add,
        remainingMs: clock.status === 'running' ? clock.remainingMs : clock.remainingMs + add,
      });
    }
  }
}

function periodWord(settings: ShotClockSettings): string {
  const p = settings.extensionPeriod;
  return p.per === 'rack' ? 'rack' : p.per === 'match' ? 'match' : `${p.racks} racks`;
}

/**
 * The clock after a recorded step (`after`: the rules' state after it; an undo included). Every step
 * opens a new clock period for the player now at the table: set for a break (no allowance, it stays idle: D-32a),
 * the first shot's after a break (the clock was set for a break), the push out's, or an ordinary shot's (a choice
 * keeps the kind of the shot it follows); the
 * clock starts by itself when `autoStart` is set, no choice is pending and it is not a break, else it waits idle. An undo does not
 * rewind the clock: extensions used stay used. A new extension period (by rack) gives every player their
 * extensions again. The match clock starts with the first recorded step and stops for good when the match is won.
 */
export function shotClockAfterStep(settings: ShotClockSettings, before: ShotClock, after: MatchState, now: number): ShotClock {
  const last = after.last;
  let kind: AllowanceKind;
  if (after.breakShot) kind = 'break';
  else if (last?.kind === 'shot') kind = before.kind === 'break' ? 'first-shot' : last.turnEnd === 'push-out' ? 'push-out' : 'shot';
  else if (last?.kind === 'undo') kind = 'shot';
  else kind = before.kind === 'break' ? 'first-shot' : before.kind;
  const period = periodOf(settings, after.rack);
  const allowanceMs = allowanceOf(settings, kind);
  const won = after.winner !== null;
  const start = !won && settings.autoStart && after.awaiting === null && kind !== 'break';
  const match = won ? stopMatchClock(before.match, now, true) : runMatchClock(before.match, now);
  return {
    status: start ? 'running' : 'idle',
    deadline: start ? now + allowanceMs : null,
    remainingMs: allowanceMs,
    allowanceMs,
    kind,
    shooter: after.turn,
    extensionsUsed: period === before.period ? before.extensionsUsed : [0, 0],
    period,
    shot: before.shot + 1,
    extended: false,
    match,
  };
}

/** What every display renders: enough to draw the same second as every other screen, and nothing to tick while idle. */
export interface ShotClockView {
  status: ShotClockStatus;
  /** Server time (ms) the clock reaches zero while running, else null. */
  deadline: number | null;
  /** ms left while idle or paused; 0 when expired. */
  remainingMs: number;
  allowanceMs: number;
  kind: AllowanceKind;
  shooter: PlayerKey;
  /** Extensions each player still has in this period. */
  extensionsLeft: Pair<number>;
  extensionsPerPlayer: number;
  /** The clock period (a button press may name it, see `decideShotClock`). */
  shot: number;
  warningSeconds: number;
  urgentSeconds: number;
  showFromSeconds: number | null;
  /** The match clock, null when off: ms played before `since`, running since `since` (server ms), and its limit. */
  match: { playedMs: number; since: number | null; limitMs: number | null; warningMs: number } | null;
}

/** The display view of a clock at server time `now` (an expired deadline shows as expired). */
export function shotClockView(settings: ShotClockSettings, stored: ShotClock, now: number): ShotClockView {
  const c = settleShotClock(stored, now);
  const left = (p: 0 | 1) => Math.max(0, settings.extensionsPerPlayer - c.extensionsUsed[p]);
  const m = settings.matchClock;
  return {
    status: c.status,
    deadline: c.deadline,
    remainingMs: c.remainingMs,
    allowanceMs: c.allowanceMs,
    kind: c.kind,
    shooter: c.shooter,
    extensionsLeft: [left(0), left(1)],
    extensionsPerPlayer: settings.extensionsPerPlayer,
    shot: c.shot,
    warningSeconds: settings.warningSeconds,
    urgentSeconds: settings.urgentSeconds,
    showFromSeconds: settings.showFromSeconds,
    match:
      m.kind === 'off'
        ? null
        : {
            playedMs: c.match.playedMs,
            since: c.match.since,
            limitMs: m.kind === 'limit' ? m.minutes * 60_000 : null,
            warningMs: m.kind === 'limit' ? m.warningMinutes * 60_000 : 0,
          },
  };
}

/** ms left on the shot clock at server time `now` (never below 0). */
export function remainingAt(view: Pick<ShotClockView, 'status' | 'deadline' | 'remainingMs'>, now: number): number {
  if (view.status === 'running' && view.deadline !== null) return Math.max(0, view.deadline - now);
  return view.remainingMs;
}

/** The whole seconds a display shows at server time `now`: 29.001 s left shows 30, 0 s shows 0. */
export function shownSeconds(view: Pick<ShotClockView, 'status' | 'deadline' | 'remainingMs'>, now: number): number {
  return Math.ceil(remainingAt(view, now) / 1000);
}

/**
 * ms from server time `now` until the shown second changes, or null when it will not change by itself (idle,
 * paused, expired, or already at 0). A display sets one timer for exactly this long: no timer while nothing moves.
 */
export function msToNextSecond(view: Pick<ShotClockView, 'status' | 'deadline' | 'remainingMs'>, now: number): number | null {
  if (view.status !== 'running' || view.deadline === null) return null;
  const left = view.deadline - now;
  if (left <= 0) return null;
  const r = left % 1000;
  return r === 0 ? 1000 : r;
}

/** The warning level a display shows for `seconds` left: none, warning (amber) or urgent (red). */
export function warningLevel(view: Pick<ShotClockView, 'warningSeconds' | 'urgentSeconds'>, seconds: number): 'none' | 'warning' | 'urgent' {
  if (seconds <= view.urgentSeconds) return 'urgent';
  if (seconds <= view.warningSeconds) return 'warning';
  return 'none';
}

/** True when the shot clock belongs on air at `seconds` left (always, or from `showFromSeconds`; never while idle). */
export function onAir(view: Pick<ShotClockView, 'status' | 'showFromSeconds'>, seconds: number): boolean {
  if (view.status === 'idle') return false;
  return view.showFromSeconds === null || seconds <= view.showFromSeconds;
}

/** The match clock in ms at server time `now`: time played, or time left of the limit (never below 0). */
export function matchClockMs(view: ShotClockView, now: number): { playedMs: number; leftMs: number | null } | null {
  const m = view.match;
  if (!m) return null;
  const playedMs = m.playedMs + (m.since === null ? 0 : Math.max(0, now - m.since));
  return { playedMs, leftMs: m.limitMs === null ? null : Math.max(0, m.limitMs - playedMs) };
}

/** One round trip of a time request: local send and receive times and the server's time in its answer (ms). */
export interface TimeSample {
  sent: number;
  received: number;
  server: number;
}

/**
 * The estimate of (server time − local time) from round trips: the sample with the shortest round trip wins (its
 * error is at most half its round trip), its server time taken at the midpoint. Null without samples.
 */
export function offsetFromSamples(samples: readonly TimeSample[]): { offset: number; roundTrip: number } | null {
  let best: TimeSample | null = null;
  for (const s of samples) if (s.received >= s.sent && (!best || s.received - s.sent < best.received - best.sent)) best = s;
  if (!best) return null;
  return { offset: best.server - (best.sent + best.received) / 2, roundTrip: best.received - best.sent };
}
