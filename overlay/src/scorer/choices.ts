/**
 * The answers the choice panel offers for a pending decision, each with the step it sends: only the choice
 * words of the match's discipline (14-1 S-9, S-14: accept / re-break / re-rack; Rotation R-4b, R-8, R-10:
 * accept / re-rack, shoot / pass, a legal foul placement), so the rules' vocabulary check never refuses one.
 * Pure; ./ChoicePanel.svelte words them, tests/scorer/console-legal.test.ts plays them.
 */
import type { MatchState } from '../../../shared/protocol/state';
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

/** The answers to the pending decision, first the usual one; empty when nothing is pending. */
export function choiceOptions(s: MatchState, lowestInKitchen: boolean): ChoiceOption[] {
  switch (s.awaiting) {
    case 'break-foul-choice':
      return [
        { label: 'acceptTable', who: 'decider', step: { choice: 'accept' }, testid: 'choice-accept' },
        { label: 'rebreak', who: 'other', step: { choice: 'rebreak' }, testid: 'choice-rebreak' },
      ];
    case 'three-foul-choice':
      return [
        { label: 'acceptTable', who: 'decider', step: { choice: 'accept' }, testid: 'choice-accept' },
        { label: 'rerack15', who: 'other', step: { choice: 'rerack' }, testid: 'choice-rerack' },
      ];
    case 'push-out-choice':
      return [
        { label: 'shoot', who: 'decider', step: { choice: 'shoot' }, testid: 'choice-shoot' },
        { label: 'pass', who: 'other', step: { choice: 'pass' }, testid: 'choice-pass' },
      ];
    case 'illegal-break-choice':
      return [
        { label: 'acceptIllegal', who: 'decider', step: { choice: 'accept' }, testid: 'choice-accept' },
        { label: 'rerackIllegal', who: 'decider', step: { choice: 'rerack' }, testid: 'choice-rerack' },
      ];
    case 'foul-placement':
      if (!s.foulPlacement) return [];
      return placementOptions(s.foulPlacement, asksLowestKitchen(s) && lowestInKitchen).map((p) => ({
        label: 'placement',
        who: 'decider',
        step: { choice: p },
        testid: `place-${p.cueBall}-${p.lowestBall}`,
        placement: p,
      }));
    default:
      return [];
  }
}
