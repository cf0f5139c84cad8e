/**
 * Names set at one size (issue 29: both names at the same size): the members of a group (lib/WholeName.svelte)
 * each report the size at which their own name fits its box, and every member is set at the smallest of them, so
 * a short name is never printed larger than the long name beside it. A member that leaves (a row gone) no longer
 * counts.
 */
export class NameGroup {
  #fits = $state<Record<number, number>>({});
  #next = 0;
  /** The size every member is set at (px): the smallest fit reported, or null before any. */
  readonly px: number | null = $derived.by(() => {
    const all = Object.values(this.#fits);
    return all.length ? Math.min(...all) : null;
  });

  /** A new member's id. */
  join(): number {
    return this.#next++;
  }

  /** Member `id` fits its name at `px`. */
  report(id: number, px: number): void {
    if (this.#fits[id] !== px) this.#fits[id] = px;
  }

  /** Member `id` is gone. */
  leave(id: number): void {
    delete this.#fits[id];
  }
}
