/**
 * Change animations for the overlay: Web Animations on `transform` and `opacity` only (compositor-friendly),
 * started by a change and finished a few hundred milliseconds later, so an idle overlay runs nothing.
 * Off with `anim=0` and whenever the viewer prefers reduced motion.
 */

let enabled = true;

/** Switch animations off (anim=0); reduced-motion preferences are always respected on top. */
export function setMotion(on: boolean): void {
  enabled = on;
}

/** True when change animations may run now. */
export function motionAllowed(): boolean {
  if (!enabled) return false;
  return !(typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches);
}

function play(node: HTMLElement, frames: Keyframe[], duration: number): void {
  if (!motionAllowed() || typeof node.animate !== 'function') return;
  node.animate(frames, { duration, easing: 'cubic-bezier(.2,.8,.2,1)' });
}

/** A short scale/opacity pop for a value that just changed (scores, counters, the two-foul badge). */
export function pop(node: HTMLElement): void {
  play(
    node,
    [
      { transform: 'scale(1.22)', opacity: 0.55 },
      { transform: 'scale(1)', opacity: 1 },
    ],
    320,
  );
}

/** Slide-and-fade entrance for a new caption line or moment (on `translate`, so the moment's `scale` stays). */
export function enter(node: HTMLElement): void {
  play(
    node,
    [
      { translate: '0 24px', opacity: 0 },
      { translate: '0 0', opacity: 1 },
    ],
    280,
  );
}

/**
 * Slide-and-fade entrance on the individual `translate` property (so a `transform: scale(…)` the element has
 * stays applied while it runs): the table overlay's cards.
 */
export function rise(node: HTMLElement): void {
  play(
    node,
    [
      { translate: '0 32px', opacity: 0 },
      { translate: '0 0', opacity: 1 },
    ],
    320,
  );
}

/**
 * Svelte action: fade `node` in whenever `key` changes after mount (the next sponsor's logo in its slot; never
 * on the first paint).
 */
export function fadeOnChange(node: HTMLElement, key: unknown): { update(k: unknown): void } {
  let last = key;
  return {
    update(k) {
      if (k !== last) play(node, [{ opacity: 0 }, { opacity: 1 }], 400);
      last = k;
    },
  };
}

/**
 * Svelte action: pop `node` whenever `value` changes after mount (never on the first paint, so a page that
 * boots or a panel that appears does not animate).
 */
export function popOnChange(node: HTMLElement, value: unknown): { update(v: unknown): void } {
  let last = value;
  return {
    update(v) {
      if (v !== last) pop(node);
      last = v;
    },
  };
}

/**
 * Svelte action: slide-and-fade `node` in when it mounts and again whenever `key` changes (a new caption or
 * moment in the same element), instead of re-creating the element in a key block.
 */
export function enterOnChange(node: HTMLElement, key: unknown): { update(k: unknown): void } {
  enter(node);
  let last = key;
  return {
    update(k) {
      if (k !== last) enter(node);
      last = k;
    },
  };
}
