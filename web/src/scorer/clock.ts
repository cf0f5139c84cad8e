/**
 * The scorer console's shot clock, as pure decisions (the page in ./ClockPanel.svelte does the pressing,
 * drawing, sound and vibration): what the one big control does in each state, which alert a change of the
 * shown second raises (the warning second, zero), when the console starts the clock by itself after a shot
 * (the per-device option), the time foul's step (D-32), and the per-device preferences. The clock's model is
 * shared/shot-clock.ts.
 */
import { TIME_FOUL, type Step } from '../../../shared/protocol/steps';
import type { AllowanceKind, ShotClockAction, ShotClockStatus, ShotClockView } from '../../../shared/shot-clock';
import type { LiveClient } from '../lib/client';
import { readItem, writeItem } from '../lib/storage';
import type { OutboxStorage } from '../lib/outbox';

/** The part of the live client the console's clock uses (the page watches the clock itself). */
export type ClockClient = Pick<LiveClient, 'serverTime' | 'pressClock'>;

/**
 * The big control's action in each status: start when idle, pause when running, resume when paused; null when
 * the clock ran out (nothing but a recorded shot or time foul, or a reset, moves it on) and when it is set for a
 * break (`kind` 'break': it does not run for one, D-32a; the first shot after the break starts it).
 */
export function mainClockAction(status: ShotClockStatus, kind: AllowanceKind = 'shot'): ShotClockAction | null {
  // D-32a: the clock does not run for a break (the server refuses start, resume and extension).
  if (kind === 'break') return null;
  switch (status) {
    case 'idle':
      return 'start';
    case 'running':
      return 'pause';
    case 'paused':
      return 'resume';
    default:
      return null;
  }
}

/** What the console last showed, to tell a crossing from a repeat (per clock period). */
export interface AlertMark {
  /** The clock period (`ShotClockView.shot`). */
  shot: number;
  seconds: number;
  status: ShotClockStatus;
}

/**
 * The alert a newly shown second raises, or null: `zero` when a clock seen with time left now shows it has run
 * out; `warning` when a running clock crosses into the warning seconds (from above `warningSeconds` to at or
 * below it; warnings of 0 s never sound, zero does). Only crossings seen within one clock period count, so
 * opening the console on a clock already in its warning seconds, or a new period, raises nothing.
 */
export function clockAlert(prev: AlertMark | null, now: AlertMark, warningSeconds: number): 'warning' | 'zero' | null {
  if (!prev || prev.shot !== now.shot) return null;
  if (now.status === 'expired' && prev.status !== 'expired') return 'zero';
  if (now.status === 'running' && warningSeconds > 0 && prev.seconds > warningSeconds && now.seconds <= warningSeconds && now.seconds > 0) return 'warning';
  return null;
}

/** What the console knows when a clock arrives, to decide whether to start it by itself. */
export interface AutoStartInput {
  /** The per-device option "start automatically when a shot is recorded". */
  enabled: boolean;
  clock: Pick<ShotClockView, 'status' | 'shot' | 'remainingMs' | 'allowanceMs' | 'kind'>;
  /** The clock period the console saw when it opened (not started by itself: nothing was recorded since). */
  openedAt: number;
  /** The last period the console started by itself (never twice: a reset after it stays reset). */
  lastStarted: number | null;
  /** The console may record, has nothing queued, and no choice is pending and the match is not over. */
  ready: boolean;
}

/**
 * True when the console should press `start` for `clock.shot`: the option is on, a step was recorded since the
 * console opened (a new clock period), the clock waits untouched (idle with its whole allowance), it was not
 * already started here for this period, and the table waits for a shot (no pending choice, nothing queued).
 */
export function shouldAutoStart(i: AutoStartInput): boolean {
  const c = i.clock;
  return (
    i.enabled && i.ready && c.kind !== 'break' && c.shot > i.openedAt && c.shot !== i.lastStarted && c.status === 'idle' && c.remainingMs === c.allowanceMs
  );
}

/** The time foul (D-32): the clock ran out before the stroke; recorded alone, in place of a shot. */
export function timeFoulStep(): Step {
  return { shot: { fouls: [TIME_FOUL] } };
}

/** The console's clock options on this device. */
export interface ClockPrefs {
  /** Start the clock by itself when a shot is recorded (else the referee starts it when the balls stop). */
  autoStart: boolean;
  /** No beep and no vibration (the warnings stay on screen). */
  muted: boolean;
}

const PREFS_KEY = 'cuecast.clockPrefs';

/** The clock options stored on this device (defaults: start by hand, sound on); unreadable values fall back to the defaults. */
export function loadClockPrefs(storage: OutboxStorage | null): ClockPrefs {
  const text = readItem(storage, PREFS_KEY);
  try {
    const v = text ? (JSON.parse(text) as Partial<ClockPrefs>) : {};
    return { autoStart: v.autoStart === true, muted: v.muted === true };
  } catch {
    return { autoStart: false, muted: false };
  }
}

/** Keep the clock options on this device. */
export function saveClockPrefs(storage: OutboxStorage | null, prefs: ClockPrefs): void {
  writeItem(storage, PREFS_KEY, JSON.stringify(prefs));
}
