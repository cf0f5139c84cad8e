/**
 * Steps in words for the scorer's lists (undo button, queued steps, refusals). A step the console played
 * forward with the rules is told in the engine's own words with the player's name, exactly as a confirmed
 * step is ("Ann: scratch — Bob places the cue ball"; other languages through the pages' `caption()`),
 * with the fouls named when the caption only says "foul". A step the rules could not play falls back to
 * `describeStep` ("2 balls made", "placement: cue ball as is · 3 on the foot spot").
 */
import type { MatchState } from '../../../shared/protocol/state';
import type { Shot, Step } from '../../../shared/protocol/steps';
import { caption, idx } from '../lib/format';
import { ts, type Lang, type ScorerKey } from '../lib/i18n-scorer';
import type { Verdict } from './preview';
import type { StepResult } from './projection';

/** English words the engine's captions use for each foul (to tell whether a caption already names it). */
const EN_CAPTION_WORDS: Record<string, string> = { 'off-table': 'off the table', 'wrong-ball': 'wrong ball' };

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
 * `state.last` in words with the name of the player who took the step: the engine's caption in English
 * (as the server's recent-steps list has it), the pages' caption in other languages. `step` (when known)
 * names fouls the caption leaves out: "Ann: foul (touched ball) — Bob places the cue ball".
 */
export function outcomeWords(lang: Lang, state: MatchState, step?: Step | null): string {
  const o = state.last;
  if (!o) return '';
  const name = state.names[idx(o.by)];
  let text = lang === 'en' ? o.caption : caption(state, lang);
  if (step && 'shot' in step && o.foul) {
    const lower = text.toLowerCase();
    const missing = shotFouls(step.shot)
      .map((f) => ({ f, words: ts(lang, `f.${f}` as ScorerKey) }))
      .filter(({ f, words }) => lang !== 'en' || !lower.includes(EN_CAPTION_WORDS[f] ?? words.toLowerCase()))
      .map(({ words }) => (lang === 'en' ? words.toLowerCase() : words));
    if (missing.length) {
      const list = ` (${missing.join(', ')})`;
      // English: right after the foul's name, before the penalty or what comes next ("foul (no rail): −1").
      const at = lang === 'en' ? text.search(/ \u2014 |[:;,]/) : -1;
      text = at >= 0 ? text.slice(0, at) + list + text.slice(at) : text + list;
    }
  }
  return text.startsWith(`${name} `) ? text : `${name}: ${text}`;
}

/**
 * A projected step in words: its outcome with the player's name, or for an undo, what it takes back.
 * Falls back to `describeStep` without a result (the rules could not play the step).
 */
export function stepWords(lang: Lang, step: Step, result: StepResult | null | undefined, lowest?: number | null): string {
  if (!result) return describeStep(lang, step, lowest);
  if (!result.outcome) {
    return result.undone ? ts(lang, 's.undoOf', { what: outcomeWords(lang, { ...result.after, last: result.undone }) }) : ts(lang, 's.undo');
  }
  return outcomeWords(lang, result.after, step);
}

/** Short words for one step. `lowest` names the lowest ball in a placement. */
export function describeStep(lang: Lang, step: Step, lowest?: number | null): string {
  if ('undo' in step) return ts(lang, 's.undo');
  if ('stalemate' in step) return ts(lang, 's.stalemate');
  if ('warning' in step) return ts(lang, 's.warning', { p: step.warning });
  if ('choice' in step) {
    const c = step.choice;
    if (typeof c === 'string') return ts(lang, 's.choice', { c: ts(lang, `ch.${c}` as ScorerKey) });
    const n = lowest ?? '';
    return ts(lang, 's.placement', {
      c: `${ts(lang, `pl.cue.${c.cueBall}` as ScorerKey)} · ${ts(lang, `pl.low.${c.lowestBall}` as ScorerKey, { n })}`,
    });
  }
  const s = step.shot;
  const fouls = shotFouls(s).map((f) => ts(lang, `f.${f}` as ScorerKey));
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
