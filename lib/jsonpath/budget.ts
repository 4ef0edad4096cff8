/**
 * The evaluation budget: how much work matching one event may do. Work is counted in steps
 * (a payload node looked at, a value a path yields, a value an operator tests, and every
 * `CHARS_PER_STEP` characters of text read, case-folded, compared or copied), not in
 * milliseconds, so the same event and filters always give the same result on any machine.
 * When the steps run out, evaluation stops with a FilterEvaluationError: a filter that could
 * not be evaluated is an error, never a silent "no values" (which would make `ne` and
 * `exists: false` true). Browser-safe.
 */

/**
 * Steps one event may spend (per group, in the delivery worker): enough for `$..*` over a
 * payload of about 100,000 nodes (two to three steps per node), small enough that spending it
 * all takes tens of milliseconds.
 */
export const EVALUATION_STEPS = 500_000;

/**
 * Characters (UTF-16 code units) of text one step pays for when a value is read, case-folded,
 * compared, hashed or copied: work that grows with a string's length costs steps in
 * proportion, so one huge string cannot make a single step take milliseconds.
 */
export const CHARS_PER_STEP = 64;

/**
 * Characters one step pays for when a regex searches a text: a search costs several times
 * a plain scan, more on the re2js engine.
 */
export const REGEX_CHARS_PER_STEP = 4;

/** Evaluation of a filter stopped: the budget ran out or the payload could not be walked. */
export class FilterEvaluationError extends Error {
  override name = "FilterEvaluationError";
}

/** A step counter shared by every path evaluated for one event. */
export class EvaluationBudget {
  #left: number;
  #spent = 0;

  /** A budget of `steps` steps. */
  constructor(readonly steps: number = EVALUATION_STEPS) {
    this.#left = steps;
  }

  /** Steps spent so far. */
  get spent(): number {
    return this.#spent;
  }

  /** Spends `count` steps; throws a FilterEvaluationError when the budget is exhausted. */
  spend(count = 1): void {
    this.#left -= count;
    this.#spent += count;
    if (this.#left < 0) {
      this.#left = 0;
      throw new FilterEvaluationError(
        `evaluation budget exceeded (more than ${this.steps} steps for one event)`,
      );
    }
  }

  /**
   * Spends the steps for touching `chars` characters of text: one per `charsPerStep` (a
   * shorter text is paid for by the step that reached it); throws like `spend`.
   */
  spendChars(chars: number, charsPerStep: number = CHARS_PER_STEP): void {
    const steps = Math.floor(chars / charsPerStep);
    if (steps > 0) this.spend(steps);
  }
}
