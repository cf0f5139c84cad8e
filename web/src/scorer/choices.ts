/**
 * The answers the choice panel offers for a pending decision, each with the step it sends: only the choice
 * words of the match's discipline (14-1 S-9, S-14: accept / re-break / re-rack; Rotation R-4b, R-8, R-10:
 * accept / re-rack, shoot / pass, a legal foul placement), so the rules' vocabulary check never refuses one.
 * Pure; ./ChoicePanel.svelte words them, tests/scorer/console-legal.test.ts plays them.
 */
import type { MatchState } from '../../../shared/protocol/state';
import { CHOICE_WORDS, type WordDecision } from '../../../shared/rules/choice-words';
import type { Placement, Step } from '../../../shared/protocol/steps';
import { lowestKitchenMatters, placementOptions } from './rotation';

/** One answer: what it says (`label`: whose name it names), the step, and its test id. */
export interface ChoiceOption {
  label: 'acceptTable' | 'rebreak' | 'rerack15' | 'shoot' | 'pass' | 'acceptIllegal' | 'rerackIllegal' | 'placement';
  /** Whose name the label names: the player deciding, or the other one. */
  who: 'decider' | 'other';
  step: Step;
  testid: string;
  placement?: Placement;
}

/** whether the panel asks where the lowest ball lies (only when the answer changes the legal placements). */
export function asksLowestKitchen(s: MatchState): boolean {
  return s.awaiting === 'foul-placement' && s.lowestBall !== null && !!s.foulPlacement && lowestKitchenMatters(s.foulPlacement);
}

type Label = [ChoiceOption['label'], ChoiceOption['who']];

/**
 * How the panel words the two answers of each decision other than a foul placement (label, whose name it
 * names), in the order of the rules' own answers (shared/rules/choice-words.ts `CHOICE_WORDS`).
 */
const LABELS: Record<WordDecision, readonly [Label, Label]> = {
  'break-foul-choice': [
    ['acceptTable', 'decider'],
    ['rebreak', 'other'],
  ],
  'three-foul-choice': [
    ['acceptTable', 'decider'],
    ['rerack15', 'other'],
  ],
  'push-out-choice': [
    ['shoot', 'decider'],
    ['pass', 'other'],
  ],
  'illegal-break-choice': [
    ['acceptIllegal', 'decider'],
    ['rerackIllegal', 'decider'],
  ],
};

/** The answers to the pending decision, first the usual one; empty when nothing is pending. */
export function choiceOptions(s: MatchState, lowestInKitchen: boolean): ChoiceOption[] {
  if (s.awaiting === null) return [];
  if (s.awaiting !== 'foul-placement') {
    const labels = LABELS[s.awaiting];
    return CHOICE_WORDS[s.awaiting].map((word, i) => ({ label: labels[i]![0], who: labels[i]![1], step: { choice: word }, testid: `choice-${word}` }));
  }
  if (!s.foulPlacement) return [];
  return placementOptions(s.foulPlacement, asksLowestKitchen(s) && lowestInKitchen).map((p) => ({
    label: 'placement',
    who: 'decider',
    step: { choice: p },
    testid: `place-${p.cueBall}-${p.lowestBall}`,
    placement: p,
  }));
}
