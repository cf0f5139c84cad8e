/**
 * Steps in words for the scorer's lists (undo button, queued steps, refusals). A step the console played
 * forward with the rules is told from its outcome in the pages' words, exactly as a confirmed step is in the
 * recent list ("Ann — touched ball · Bob places the balls after the foul", `stepLine` of lib/format), fouls
 * named from the outcome's facts. A step the rules could not play falls back to `describeStep` ("2 balls
 * made", "placement: cue ball as is · 3 on the foot spot").
 */
import type { Shot, Step } from '../../../shared/protocol/steps';
import { stepLine, undoLine } from '../lib/format';
import { t, type Lang, type StringKey } from '../lib/i18n-pages';
import type { Verdict } from './preview';
import type { StepResult } from './projection';

/** The fouls a shot reports (scorer dictionary keys without `f.`), each once. */
export function shotFouls(s: Shot): string[] {
  const out: string[] = [];
  if (s.cueBall === 'scratch') out.push('scratch');
  if (s.cueBall === 'off-table' || s.offTable?.length) out.push('off-table');
  if (s.firstContact === null) out.push('no-contact');
  if (s.rail === false) out.push('no-rail');
  for (const f of s.fouls ?? []) out.push(f);
  return [...new Set(out)];
}

/**
 * A projected step in words: its outcome as the recent list will say it, or for an undo what it takes back
 * ("Undone: Ann +3, run 3"). Falls back to `describeStep` without a result (the rules could not play the step).
 */
export function stepWords(lang: Lang, step: Step, result: StepResult | null | undefined, lowest?: number | null): string {
  if (!result) return describeStep(lang, step, lowest);
  const names = result.after.names;
  if (!result.outcome) return result.undone ? undoLine(result.undone, names, lang) : t(lang, 's.undo');
  return stepLine(result.outcome, names, lang);
}

/** Short words for one step. `lowest` names the lowest ball in a placement. */
export function describeStep(lang: Lang, step: Step, lowest?: number | null): string {
  if ('undo' in step) return t(lang, 's.undo');
  if ('stalemate' in step) return t(lang, 's.stalemate');
  if ('warning' in step) return t(lang, 's.warning', { p: step.warning });
  if ('choice' in step) {
    const c = step.choice;
    if (typeof c === 'string') return t(lang, 's.choice', { c: t(lang, `ch.${c}` as StringKey) });
    const n = lowest ?? '';
    return t(lang, 's.placement', {
      c: `${t(lang, `pl.cue.${c.cueBall}` as StringKey)} · ${t(lang, `pl.low.${c.lowestBall}` as StringKey, { n })}`,
    });
  }
  const s = step.shot;
  const fouls = shotFouls(s).map((f) => t(lang, `f.${f}` as StringKey));
  const pocketedList = Array.isArray(s.pocketed) ? s.pocketed : null;
  const pocketedCount = Array.isArray(s.pocketed) ? s.pocketed.length : (s.pocketed ?? 0);
  const parts: string[] = [];
  if (s.breakRails) parts.push(t(lang, 's.break'));
  if (s.pushOut) parts.push(t(lang, 's.pushOut'));
  if (fouls.length) parts.push(t(lang, 's.foul', { f: fouls.join(', ') }));
  else if (s.call === 'safety') parts.push(t(lang, 's.safety'));
  else if (pocketedList && pocketedList.length) parts.push(t(lang, 's.pocketed', { list: pocketedList.join(' ') }));
  else if (pocketedCount > 1) parts.push(t(lang, 's.madeN', { n: pocketedCount }));
  else if (pocketedCount === 1) parts.push(t(lang, 's.made'));
  else if (!s.breakRails && !s.pushOut) parts.push(t(lang, 's.miss'));
  return parts.join(' · ');
}

/** A button's preview of what the engine will make of a step: "+3", "foul −1", "breaking foul −2", … */
export function verdictWords(lang: Lang, v: Verdict): string {
  switch (v.kind) {
    case 'scores':
      return t(lang, 'v.scores', { n: v.points });
    case 'legal':
      return t(lang, 'v.legal');
    case 'foul':
      return t(lang, 'v.foul', { p: v.penalty });
    case 'breaking-foul':
      return t(lang, 'v.breaking-foul', { p: v.penalty });
    case 'third-foul':
      return t(lang, 'v.third-foul', { p: v.penalty });
    case 'refused':
      return t(lang, 'v.refused', { msg: v.message });
  }
}

/** " + Scratch + Touched ball": the fouls a button will record with its step (empty when none). */
export function foulsSuffix(lang: Lang, fouls: readonly string[]): string {
  return fouls.map((f) => ` + ${t(lang, `f.${f}` as StringKey)}`).join('');
}
