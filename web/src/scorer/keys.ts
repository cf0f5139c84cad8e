/**
 * Keyboard shortcuts for the scorer console (laptops, Stream Deck keystrokes). A pure map from a key
 * press to an action; the page decides what the action does in its current panel.
 *
 * Both disciplines: U or Ctrl/Cmd+Z undo · Esc cancel · X miss · S safety · F foul menu (then 1–8 picks the
 * foul) · A / R the first / second choice of a pending decision (accept, re-break/re-rack, shoot/pass) ·
 * N "neither" on the rack-area question.
 * 14-1: Enter, Space or M ball made · + / − more or fewer balls.
 * Rotation: 1–9 toggle that ball, 0 the 10, Shift+1…5 the 11…15 · Enter record · P push out · C the next
 * tapped ball becomes the called one (call shot).
 * Shot clock (a match with one): T start / pause / resume · E extension · Shift+T reset the clock. In the foul
 * menu the time foul takes the digit after the last foul (14-1: 8, Rotation: 9).
 */
export type KeyAction =
  | { type: 'undo' }
  | { type: 'cancel' }
  | { type: 'miss' }
  | { type: 'safety' }
  | { type: 'foul-menu' }
  | { type: 'option'; index: number }
  | { type: 'choice'; index: 0 | 1 }
  | { type: 'neither' }
  | { type: 'made' }
  | { type: 'count'; delta: 1 | -1 }
  | { type: 'ball'; ball: number }
  | { type: 'record' }
  | { type: 'push-out' }
  | { type: 'next-called' }
  | { type: 'clock'; what: 'main' | 'extension' | 'reset' };

export interface KeyPress {
  key: string;
  code?: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/**
 * The action for a key press, or null. `foulMenuOpen` turns digits into foul picks; in Rotation digits pick
 * balls otherwise.
 */
export function keyAction(k: KeyPress, discipline: '14-1' | 'rotation', foulMenuOpen: boolean): KeyAction | null {
  if (k.altKey) return null;
  const key = k.key.length === 1 ? k.key.toLowerCase() : k.key;
  if ((k.ctrlKey || k.metaKey) && key === 'z') return { type: 'undo' };
  if (k.ctrlKey || k.metaKey) return null;
  const digit = digitOf(k);
  if (foulMenuOpen && digit !== null && digit >= 1) return { type: 'option', index: digit - 1 };
  switch (key) {
    case 'u':
    case 'Backspace':
      return { type: 'undo' };
    case 'Escape':
      return { type: 'cancel' };
    case 'x':
      return { type: 'miss' };
    case 's':
      return { type: 'safety' };
    case 'f':
      return { type: 'foul-menu' };
    case 'a':
      return { type: 'choice', index: 0 };
    case 'r':
      return { type: 'choice', index: 1 };
    case 'n':
      return { type: 'neither' };
    case 't':
      return { type: 'clock', what: k.shiftKey ? 'reset' : 'main' };
    case 'e':
      return { type: 'clock', what: 'extension' };
  }
  if (discipline === '14-1') {
    if (key === 'Enter' || key === ' ' || key === 'm') return { type: 'made' };
    if (key === '+' || key === '=') return { type: 'count', delta: 1 };
    if (key === '-' || key === '_') return { type: 'count', delta: -1 };
    return null;
  }
  if (key === 'Enter') return { type: 'record' };
  if (key === 'p') return { type: 'push-out' };
  if (key === 'c') return { type: 'next-called' };
  if (digit !== null) {
    if (k.shiftKey) return digit >= 1 && digit <= 5 ? { type: 'ball', ball: 10 + digit } : digit === 0 ? { type: 'ball', ball: 10 } : null;
    return { type: 'ball', ball: digit === 0 ? 10 : digit };
  }
  return null;
}

/** The digit of a press, from `code` (layout- and Shift-proof) or the key itself. */
function digitOf(k: KeyPress): number | null {
  const m = /^(?:Digit|Numpad)(\d)$/.exec(k.code ?? '');
  if (m) return Number(m[1]);
  if (/^\d$/.test(k.key)) return Number(k.key);
  return null;
}
