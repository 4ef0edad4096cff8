/**
 * The results of a route set's shared leaves for one event: each leaf is evaluated at most
 * once per event, and its result and the steps it spent are remembered for the other routes
 * that use it. Browser-safe.
 */

const UNKNOWN = 0;
const PASSED = 1;
const FAILED = 2;

/** Remembered leaf results of one event, by leaf number. */
export class LeafMemo {
  readonly #state: Uint8Array;
  readonly #steps: Uint32Array;

  /** An empty memo for `leafCount` leaves. */
  constructor(leafCount: number) {
    this.#state = new Uint8Array(leafCount);
    this.#steps = new Uint32Array(leafCount);
  }

  /** Whether the leaf's result is known for this event. */
  has(leaf: number): boolean {
    return this.#state[leaf] !== UNKNOWN;
  }

  /** The leaf's remembered result (only meaningful when `has(leaf)`). */
  result(leaf: number): boolean {
    return this.#state[leaf] === PASSED;
  }

  /** The steps the leaf spent when it was evaluated. */
  steps(leaf: number): number {
    return this.#steps[leaf];
  }

  /** Remembers a leaf's result and the steps it spent. */
  remember(leaf: number, result: boolean, steps: number): void {
    this.#state[leaf] = result ? PASSED : FAILED;
    this.#steps[leaf] = steps;
  }
}
