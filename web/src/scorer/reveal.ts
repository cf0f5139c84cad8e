/**
 * Svelte action: scroll an element that just opened into view (the foul list below the fold on a phone,
 * the launcher's confirmation). `block: 'nearest'` moves the page only as far as needed.
 */
export function reveal(node: HTMLElement): void {
  const go = () => {
    if (node.isConnected) node.scrollIntoView({ block: 'nearest' });
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(go);
  else go();
}
