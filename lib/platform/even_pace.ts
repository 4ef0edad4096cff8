/**
 * Even pacing: at most `max` events per `windowMs`, by keeping every two
 * events at least `windowMs / max` apart (then no window of that length can
 * hold more than `max`). A time is reserved only when the caller will really
 * use it, so asking costs nothing.
 */
export class EvenPace {
  readonly #baseSpacingMs: number;
  #spacingMs: number;
  /** Reserved times, ascending. */
  #taken: number[] = [];

  /** At most `max` events in any `windowMs`. */
  constructor(max: number, windowMs: number) {
    this.#baseSpacingMs = windowMs / max;
    this.#spacingMs = this.#baseSpacingMs;
  }

  /** Keeps `1 / shares` of the limit, when `shares` instances share it evenly. */
  share(shares: number): void {
    this.#spacingMs = this.#baseSpacingMs * Math.max(1, Math.floor(shares));
  }

  /** The earliest time at or after `at` that keeps its distance from every reserved time. */
  earliest(at: number): number {
    let candidate = at;
    for (const time of this.#taken) {
      if (time <= candidate - this.#spacingMs) continue;
      if (time >= candidate + this.#spacingMs) break;
      candidate = time + this.#spacingMs;
    }
    return candidate;
  }

  /** Reserves the earliest time at or after `at`, forgetting times long past `now`; returns it. */
  take(at: number, now: number): number {
    const time = this.earliest(at);
    this.#taken = this.#taken.filter((taken) => taken > now - this.#spacingMs);
    const index = this.#taken.findIndex((taken) => taken > time);
    this.#taken.splice(index === -1 ? this.#taken.length : index, 0, time);
    return time;
  }
}

/** A rate limiter's answer: wait `waitMs`, then send (granted), or hand off (not granted). */
export interface Reservation {
  granted: boolean;
  waitMs: number;
}
