/**
 * The evaluation budget: how much work matching one event may do. Work is counted in steps
 * (a payload node looked at, a value a path yields, a value an operator tests), not in
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
}
