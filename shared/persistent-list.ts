/**
 * A persistent (immutable, structure-sharing) list for the incremental score sheet and rack totals: cells
 * linked newest first, so appending or changing one of the newest elements copies only the cells above it
 * and every older cell is shared with the previous version. Index 0 is the OLDEST element (as in the sheet).
 * Elements are never mutated: a change makes a new element object.
 */
import type { TailPatch } from './protocol/wire';

/** One cell: an element, the older cells below it, and how many elements the list holds from here down. */
export interface Cell<T> {
  readonly value: T;
  readonly next: Cell<T> | null;
  readonly size: number;
}

/** A persistent list: its newest cell, or null when empty. */
export type PList<T> = Cell<T> | null;

/** Number of elements. O(1). */
export function sizeOf<T>(list: PList<T>): number {
  return list ? list.size : 0;
}

/** The list with `value` appended (as the newest element). O(1). */
export function append<T>(list: PList<T>, value: T): Cell<T> {
  return { value, next: list, size: sizeOf(list) + 1 };
}

/** The cell holding element `index` (0 = oldest). O(size − index). @throws RangeError when out of range. */
function cellAt<T>(list: PList<T>, index: number): Cell<T> {
  if (index < 0 || index >= sizeOf(list)) throw new RangeError(`index ${index} outside a list of ${sizeOf(list)}`);
  let c = list!;
  while (c.size - 1 > index) c = c.next!;
  return c;
}

/** Element `index` (0 = oldest). O(size − index). @throws RangeError when out of range. */
export function elementAt<T>(list: PList<T>, index: number): T {
  return cellAt(list, index).value;
}

/** The list with element `index` replaced by `value`. O(size − index). @throws RangeError when out of range. */
export function replaceAt<T>(list: PList<T>, index: number, value: T): Cell<T> {
  if (index < 0 || index >= sizeOf(list)) throw new RangeError(`index ${index} outside a list of ${sizeOf(list)}`);
  // The newest element (the usual case: the open inning's row): one new cell.
  if (index === list!.size - 1) return { value, next: list!.next, size: list!.size };
  const above: T[] = [];
  let c = list!;
  while (c.size - 1 > index) {
    above.push(c.value);
    c = c.next!;
  }
  let out: Cell<T> = { value, next: c.next, size: c.size };
  for (let i = above.length - 1; i >= 0; i--) out = append(out, above[i]!);
  return out;
}

/**
 * In a list sorted by `key` ascending (newest cell = largest key), replace the element whose key is `key`
 * with `update(old)`, or insert `update(undefined)` in its sorted place. O(number of larger keys).
 */
export function upsertSorted<T>(list: PList<T>, key: number, keyOf: (v: T) => number, update: (old: T | undefined) => T): Cell<T> {
  const above: T[] = [];
  let c = list;
  while (c && keyOf(c.value) > key) {
    above.push(c.value);
    c = c.next;
  }
  let out: Cell<T> = c && keyOf(c.value) === key ? { value: update(c.value), next: c.next, size: c.size } : append(c, update(undefined));
  for (let i = above.length - 1; i >= 0; i--) out = append(out, above[i]!);
  return out;
}

/** Elements oldest first, as a new array. O(size). */
export function toArray<T>(list: PList<T>): T[] {
  const out = new Array<T>(sizeOf(list));
  for (let c = list; c; c = c.next) out[c.size - 1] = c.value;
  return out;
}

/** A list of `items` (oldest first). O(n). */
export function fromArray<T>(items: readonly T[]): PList<T> {
  let list: PList<T> = null;
  for (const v of items) list = append(list, v);
  return list;
}


/**
 * The tail patch from list `a` to list `b`: `b` = the first `from` elements of `a` followed by `rows`. The
 * elements are compared by cell identity, so for two versions of one list (one evolved from the other,
 * or both from a common one) it costs O(cells not shared) and `rows` holds only new or changed elements.
 */
export function tailPatch<T>(a: PList<T>, b: PList<T>): TailPatch<T> {
  const rows: T[] = [];
  let x = a;
  let y = b;
  while (sizeOf(x) > sizeOf(y)) x = x!.next;
  while (sizeOf(y) > sizeOf(x)) {
    rows.push(y!.value);
    y = y!.next;
  }
  while (x !== y) {
    rows.push(y!.value);
    x = x!.next;
    y = y!.next;
  }
  return { from: sizeOf(y), rows: rows.reverse() };
}
