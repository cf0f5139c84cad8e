/**
 * The scorer console's token, checked with the server as the console opens (not when the first shot is
 * refused). Plain TypeScript, no DOM: the page injects how to check, keep, forget and reopen.
 *
 * - A token the server confirms is `valid`: the console records. One the server rejects is `wrong`: it is
 *   forgotten (not kept in the browser) and the console turns read-only with the reason and a paste field.
 * - No answer (offline, the API unreachable) says nothing about the token: `unverified`, the console keeps
 *   recording (steps queue as usual) and checks again as soon as the server answers.
 * - While the check is out (`checking`) steps may be entered; they queue and are sent once it answers yes.
 * - A step refused for its token (`held` by the outbox) makes the token `wrong` the same way; the held steps
 *   stay queued until a valid token is given or the scorer discards them.
 * - A pasted token (or a whole scorer link) is checked before it is kept; only a valid one is kept, then the
 *   page reopens with it. The paste field stays until then.
 */
import { tokenFromPaste, type TokenCheck } from './tokens';

/** Where the console stands with its token. */
export type TokenStatus = 'missing' | 'checking' | 'valid' | 'unverified' | 'wrong';

/** The paste field's last result (`idle`: nothing asked yet). */
export type PasteState = 'idle' | 'checking' | 'empty' | 'wrong' | 'not-found' | 'unreachable';

/** How the page lets the console check, keep and drop a token. */
export interface TokenAccess {
  /** The token the console opened with (scorer link or this browser's storage), null when none. */
  readonly token: string | null;
  /** Ask the server (never rejects). */
  check(token: string): Promise<TokenCheck>;
  /** Keep a token in the browser (confirmed valid, or opened with and not yet checkable). */
  keep(token: string): void;
  /** Forget a token found not valid. */
  forget(token: string): void;
  /** Open the console again with a newly kept token (the page reloads). */
  reopen(): void;
}

/** The token part of the console's view. */
export interface TokenView {
  status: TokenStatus;
  paste: PasteState;
}

export class TokenGate {
  private status: TokenStatus;
  private paste: PasteState = 'idle';
  /** The last check could not reach the server: check again when it answers. */
  private recheck = false;
  private verifying = false;
  private stopped = false;

  /**
   * @param access the page's token access, or `true` / `false` for a token already known valid / no token
   *   at all (no checks, no paste; for tests and embedding).
   * @param changed called after every change of the view.
   */
  constructor(
    private readonly source: TokenAccess | boolean,
    private readonly changed: () => void,
  ) {
    if (typeof source === 'boolean') this.status = source ? 'valid' : 'missing';
    else this.status = source.token ? 'checking' : 'missing';
  }

  private get access(): TokenAccess | null {
    return typeof this.source === 'boolean' ? null : this.source;
  }

  view(): TokenView {
    return { status: this.status, paste: this.paste };
  }

  /** Steps may be entered (they queue): a token is there and not known to be wrong. */
  get canEnter(): boolean {
    return this.status === 'checking' || this.status === 'valid' || this.status === 'unverified';
  }

  /** Queued steps may be sent: the token is valid, or could not be checked yet (the server will tell). */
  get canSend(): boolean {
    return this.status === 'valid' || this.status === 'unverified';
  }

  /** Start the opening check (when there is a token to check). */
  start(): void {
    if (this.status === 'checking') void this.verify();
  }

  stop(): void {
    this.stopped = true;
  }

  /** The server answered (a snapshot arrived): check again if the last check could not reach it. */
  serverAnswered(): void {
    if (this.recheck && this.status === 'unverified' && !this.verifying) void this.verify();
  }

  /** The server refused a step for its token: the token is wrong; forget it. */
  refused(): void {
    if (this.status === 'wrong' || this.status === 'missing') return;
    this.status = 'wrong';
    this.recheck = false;
    const t = this.access?.token;
    if (t) this.access!.forget(t);
    this.changed();
  }

  /**
   * Check a pasted token (or scorer link) and keep it only when valid, then reopen the console with it.
   * Otherwise the paste state says why (`empty`, `wrong`, `not-found`, `unreachable`) and nothing is kept.
   */
  async offer(text: string): Promise<void> {
    const access = this.access;
    if (!access || this.paste === 'checking') return;
    const token = tokenFromPaste(text);
    if (!token) {
      this.setPaste('empty');
      return;
    }
    this.setPaste('checking');
    const r = await access.check(token);
    if (this.stopped) return;
    if (r === 'valid') {
      access.keep(token);
      this.setPaste('idle');
      access.reopen();
      return;
    }
    this.setPaste(r);
  }

  private setPaste(p: PasteState): void {
    this.paste = p;
    this.changed();
  }

  private async verify(): Promise<void> {
    const access = this.access;
    const token = access?.token;
    if (!access || !token) return;
    this.verifying = true;
    this.recheck = false;
    const r = await access.check(token);
    this.verifying = false;
    if (this.stopped || this.status === 'wrong') return;
    if (r === 'valid') {
      this.status = 'valid';
      access.keep(token);
    } else if (r === 'wrong') {
      this.status = 'wrong';
      access.forget(token);
    } else {
      // Unreachable (or the match is unknown): nothing known about the token. Keep it; ask again later.
      this.status = 'unverified';
      access.keep(token);
      this.recheck = r === 'unreachable';
    }
    this.changed();
  }
}
