/**
 * `Idempotency-Key` for creating requests (issue 29: three presses of *Create event* made three events). A client
 * sends the same key with every retry of one intended creation; the first request runs, and every later one with
 * that key (while the first is still running, or up to `ttlMs` after) gets the first one's answer, status and
 * body, instead of creating again. Keys are kept in this process (at most `max`, oldest dropped first): a retry
 * that reaches another instance behind a load balancer is not recognised. A failed creation (no 2xx answer) is
 * forgotten, so the retry runs again.
 */

/** A key as a client may send it: 8–128 of `A–Z a–z 0–9 _ -` (a UUID, or random hex). */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

/** The answer a creation gave: HTTP status and JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

/** Answers of recent creations by idempotency key (per route, one instance per route). */
export class IdempotentAnswers {
  private readonly seen = new Map<string, { at: number; answer: Promise<Answer> }>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs = 10 * 60_000,
    private readonly max = 10_000,
  ) {}

  /**
   * The answer for `key`: the first creation's (running or done, within the TTL), or `create()`'s, remembered
   * when it succeeds (2xx). `create` rejecting is passed on and nothing is remembered.
   */
  run(key: string, create: () => Promise<Answer>): Promise<Answer> {
    const t = this.now();
    const hit = this.seen.get(key);
    if (hit && t - hit.at < this.ttlMs) return hit.answer;
    const answer = create();
    this.seen.set(key, { at: t, answer });
    answer.then(
      (a) => {
        if (a.status < 200 || a.status > 299) this.forget(key, answer);
      },
      () => this.forget(key, answer),
    );
    while (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value!);
    return answer;
  }

  private forget(key: string, answer: Promise<Answer>): void {
    if (this.seen.get(key)?.answer === answer) this.seen.delete(key);
  }
}
