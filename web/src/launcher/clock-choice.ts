/**
 * The shot clock as a set-up form chooses it (the launcher's new match, the new event's defaults): off, a preset
 * (pro, league) or custom seconds, turned into the `clock` field `POST /api/matches` and an event's `defaults`
 * take (`{preset}` or `{settings}`, shared/protocol/shot-clock.ts). The server checks it again.
 */
import type { ShotClockSettingsBody } from '../../../shared/protocol/shot-clock';
import { CLOCK_PRESETS, CLOCK_SECONDS_MAX, shotClockSettingsProblem, type ShotClockSettings } from '../../../shared/shot-clock';
import type { PageKey } from '../lib/i18n';

/** What the form offers. */
export type ClockChoice = 'off' | 'pro' | 'league' | 'custom';

export interface ClockForm {
  choice: ClockChoice;
  /** Custom: seconds for every shot after the break (the first shot after it included; no clock for the break, D-32a). */
  shotSeconds: number;
  /** Custom: seconds one extension adds (0: no extensions). */
  extensionSeconds: number;
}

export const defaultClockForm = (): ClockForm => ({ choice: 'off', shotSeconds: 45, extensionSeconds: 45 });

/** Why the clock fields cannot be sent: the field and the words (a page-string key; `{max}` the bound). */
export type ClockProblem = { ok: false; field: string; key: PageKey; params: { max: number } };

/**
 * Custom settings: the league preset (one extension per player per match, warnings at 10 and 5 s, always on
 * air) with `shotSeconds` for every shot and `extensionSeconds` per extension (none when 0).
 */
export function customClock(shotSeconds: number, extensionSeconds: number): ShotClockSettings {
  return {
    ...CLOCK_PRESETS.league,
    shotSeconds,
    firstShotSeconds: shotSeconds,
    pushOutSeconds: shotSeconds,
    extensionSeconds,
    extensionsPerPlayer: extensionSeconds > 0 ? 1 : 0,
    warningSeconds: Math.min(CLOCK_PRESETS.league.warningSeconds, shotSeconds),
    urgentSeconds: Math.min(CLOCK_PRESETS.league.urgentSeconds, shotSeconds),
  };
}

/**
 * The `clock` field for the form (null: no clock, leave the field out), or the problem naming the field:
 * seconds per shot a whole number from 1 to 3600, extension seconds from 0 to 3600.
 */
export function clockBody(f: ClockForm): { ok: true; clock: ShotClockSettingsBody | null } | ClockProblem {
  if (f.choice === 'off') return { ok: true, clock: null };
  if (f.choice !== 'custom') return { ok: true, clock: { preset: f.choice } };
  const whole = (v: number, min: number) => Number.isInteger(v) && v >= min && v <= CLOCK_SECONDS_MAX;
  if (!whole(f.shotSeconds, 1)) return { ok: false, field: 'clock.shotSeconds', key: 'formClockSeconds', params: { max: CLOCK_SECONDS_MAX } };
  if (!whole(f.extensionSeconds, 0)) return { ok: false, field: 'clock.extensionSeconds', key: 'formClockExtension', params: { max: CLOCK_SECONDS_MAX } };
  const settings = customClock(f.shotSeconds, f.extensionSeconds);
  const problem = shotClockSettingsProblem(settings);
  if (problem) return { ok: false, field: problem.field, key: 'formClockSeconds', params: { max: CLOCK_SECONDS_MAX } };
  return { ok: true, clock: { settings } };
}
