/**
 * The off-air shot clock face's pure parts (./ShotClockFace.svelte draws them): the match clock's line, the
 * extension markers, the status word, and the server time of a page held back by `?delay`. What second to show
 * and when it changes come from ./live-clock.ts (`tickShotClock`, `showClock`), never from here.
 */
import type { ShotClockStatus } from '../../../shared/shot-clock';
import type { ServerTime, ShownClock } from './live-clock';
import { t, type Lang } from './i18n-pages';
export { extensionMarks } from './live-clock';

/**
 * `ms` as time on a wall clock reads it (issue 29): whole minutes as "47 min", from an hour "1 h 05" (in `lang`:
 * `clk.minutes` / `clk.hours`), never "0:47", which reads as seconds. Minutes are rounded down (`up` false: time
 * played shows a minute once it is complete) or up (`up` true: time left shows "1 min" for its last seconds,
 * as the shot clock shows 1). Negative counts as 0.
 */
export function hoursMinutes(ms: number, up: boolean, lang: Lang): string {
  const v = Math.max(0, ms) / 60_000;
  const minutes = up ? Math.ceil(v) : Math.floor(v);
  if (minutes < 60) return t(lang, 'clk.minutes', { m: minutes });
  return t(lang, 'clk.hours', { h: Math.floor(minutes / 60), mm: String(minutes % 60).padStart(2, '0') });
}

/**
 * The match clock line of `shown` in `lang`: "Match time 47 min" (time played) or "12 min left" (a time limit),
 * with `warning` true once the time left is at or under the limit's warning; null when the match has no match clock.
 */
export function matchClockLine(shown: Pick<ShownClock, 'match' | 'view'>, lang: Lang): { text: string; warning: boolean } | null {
  const m = shown.match;
  const limit = shown.view.match;
  if (!m || !limit) return null;
  if (m.leftMs === null) return { text: t(lang, 'clk.matchPlayed', { t: hoursMinutes(m.playedMs, false, lang) }), warning: false };
  return { text: t(lang, 'clk.matchLeft', { t: hoursMinutes(m.leftMs, true, lang) }), warning: m.leftMs <= limit.warningMs };
}

/** The word a face shows beside the seconds for `status` (a running clock needs none: null). */
export function statusKey(status: ShotClockStatus): 'clk.idle' | 'clk.paused' | 'clk.expired' | null {
  return status === 'idle' ? 'clk.idle' : status === 'paused' ? 'clk.paused' : status === 'expired' ? 'clk.expired' : null;
}

/**
 * The server time a page held back by `delayMs` (`/watch/<id>?delay=`) draws its clock at: the estimate minus
 * the delay, so a clock view handed on `delayMs` after it arrived shows the second the delayed stream shows.
 * `delayMs` ≤ 0 returns `time` itself.
 */
export function delayedTime(time: Pick<ServerTime, 'now' | 'onChange'>, delayMs: number): Pick<ServerTime, 'now' | 'onChange'> {
  if (!(delayMs > 0)) return time;
  return { now: () => time.now() - delayMs, onChange: (cb) => time.onChange(cb) };
}

/** Digits of the shown seconds (at least 2, so a face keeps one size from 10 down to 0). */
export function digitCount(seconds: number): number {
  return Math.max(2, String(Math.max(0, Math.floor(seconds))).length);
}
