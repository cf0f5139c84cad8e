/**
 * Steps in words for the scorer's lists (queued steps, refusals): "2 balls made", "foul: scratch",
 * "placement: cue ball as is · 3 on the foot spot". Localised through the scorer dictionary.
 */
import type { Step } from '../../../shared/protocol/steps';
import { ts, type Lang, type ScorerKey } from '../lib/i18n-scorer';
import type { Verdict } from './preview';

/** Short words for one step. `lowest` names the lowest ball in a placement. */
export function describeStep(lang: Lang, step: Step, lowest?: number | null): string {
  if ('undo' in step) return ts(lang, 's.undo');
  if ('stalemate' in step) return ts(lang, 's.stalemate');
  if ('warning' in step) return ts(lang, 's.warning', { p: step.warning });
  if ('choice' in step) {
    const c = step.choice;
    if (typeof c === 'string') return ts(lang, 's.choice', { c });
    const n = lowest ?? '';
    return ts(lang, 's.placement', {
      c: `${ts(lang, `pl.cue.${c.cueBall}` as ScorerKey)} · ${ts(lang, `pl.low.${c.lowestBall}` as ScorerKey, { n })}`,
    });
  }
  const s = step.shot;
  const fouls: string[] = [];
  if (s.cueBall === 'scratch') fouls.push(ts(lang, 'f.scratch'));
  if (s.cueBall === 'off-table') fouls.push(ts(lang, 'f.off-table'));
  if (s.offTable?.length) fouls.push(ts(lang, 'f.off-table'));
  if (s.firstContact === null) fouls.push(ts(lang, 'f.no-contact'));
  if (s.rail === false) fouls.push(ts(lang, 'f.no-rail'));
  for (const f of s.fouls ?? []) fouls.push(ts(lang, `f.${f}` as ScorerKey));
  const pocketedList = Array.isArray(s.pocketed) ? s.pocketed : null;
  const pocketedCount = Array.isArray(s.pocketed) ? s.pocketed.length : (s.pocketed ?? 0);
  const parts: string[] = [];
  if (s.breakRails) parts.push(ts(lang, 's.break'));
  if (s.pushOut) parts.push(ts(lang, 's.pushOut'));
  if (fouls.length) parts.push(ts(lang, 's.foul', { f: fouls.join(', ') }));
  else if (s.call === 'safety') parts.push(ts(lang, 's.safety'));
  else if (pocketedList && pocketedList.length) parts.push(ts(lang, 's.pocketed', { list: pocketedList.join(' ') }));
  else if (pocketedCount > 1) parts.push(ts(lang, 's.madeN', { n: pocketedCount }));
  else if (pocketedCount === 1) parts.push(ts(lang, 's.made'));
  else if (!s.breakRails && !s.pushOut) parts.push(ts(lang, 's.miss'));
  return parts.join(' · ');
}

/** A button's preview of what the engine will make of a step: "+3", "foul −1", "breaking foul −2", … */
export function verdictWords(lang: Lang, v: Verdict): string {
  switch (v.kind) {
    case 'scores':
      return ts(lang, 'v.scores', { n: v.points });
    case 'legal':
      return ts(lang, 'v.legal');
    case 'foul':
      return ts(lang, 'v.foul', { p: v.penalty });
    case 'breaking-foul':
      return ts(lang, 'v.breaking-foul', { p: v.penalty });
    case 'third-foul':
      return ts(lang, 'v.third-foul', { p: v.penalty });
    case 'refused':
      return ts(lang, 'v.refused', { msg: v.message });
  }
}

/** " + Scratch + Touched ball": the fouls a button will record with its step (empty when none). */
export function foulsSuffix(lang: Lang, fouls: readonly string[]): string {
  return fouls.map((f) => ` + ${ts(lang, `f.${f}` as ScorerKey)}`).join('');
}
