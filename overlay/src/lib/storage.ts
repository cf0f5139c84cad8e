/** The browser's localStorage, or null where it is blocked (private mode, sandboxed frames). */
export function localStore(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
