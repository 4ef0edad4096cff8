/**
 * A set of routes compiled together for selection: identical leaves are compiled once and
 * shared, each evaluated at most once per event (its result remembered in a LeafMemo, its
 * steps charged again to every route that reuses it, so budgets are spent exactly as if each
 * route were evaluated alone), and an index from event kind to the routes that can possibly
 * match it lets selection skip the others. Browser-safe.
 */
import type { Filter, FilterNode } from "../types.ts";
import { assertValidNode, compileTree, type EvaluationInput, type Predicate } from "./compile.ts";
import { compileEventFilter } from "./event_filter.ts";
import { compileFieldFilter, fieldMatches, spendAgain } from "./field_filter.ts";
import { KindIndex, type PossibleKinds, possibleKinds } from "./kind_index.ts";
import { LeafMemo } from "./leaf_memo.ts";

/** Routes compiled together: candidates by kind, and each route's shared-leaf predicate. */
export interface RouteSet {
  /** Positions of the routes that can match an event of this kind, in stored order. */
  candidates(kind: string): readonly number[];
  /** Whether the route at `position` matches; `input.memo` must come from `newMemo()`. */
  matches(position: number, input: EvaluationInput & { memo: LeafMemo }): boolean;
  /** A fresh memo for one event. */
  newMemo(): LeafMemo;
  /** How many distinct leaves the routes hold. */
  readonly leafCount: number;
}

/** A key that is equal only for leaves that always give the same result. */
function leafKey(filter: Filter): string {
  if (filter.type === "event") return JSON.stringify(["event", filter.value]);
  const value = "value" in filter && filter.value !== undefined
    ? JSON.stringify(filter.value)
    : "-";
  return JSON.stringify([filter.path, filter.op ?? "eq", filter.caseSensitive === true, value]);
}

class LeafTable {
  readonly #numbers = new Map<string, number>();
  readonly #leaves = new Map<number, Predicate>();

  get size(): number {
    return this.#numbers.size;
  }

  /** The shared, remembering predicate of a leaf. */
  leaf = (filter: Filter): Predicate => {
    const key = leafKey(filter);
    const known = this.#numbers.get(key);
    if (known !== undefined) return this.#leaves.get(known)!;
    const number = this.#numbers.size;
    const predicate = rememberingLeaf(filter, number);
    this.#numbers.set(key, number);
    this.#leaves.set(number, predicate);
    return predicate;
  };
}

function rememberingLeaf(filter: Filter, leaf: number): Predicate {
  if (filter.type === "event") {
    const matches = compileEventFilter(filter.value);
    return (input) => {
      const memo = input.memo!;
      if (memo.has(leaf)) return memo.result(leaf);
      const result = matches(input.kind, input.action);
      memo.remember(leaf, result, 0);
      return result;
    };
  }
  const field = compileFieldFilter(filter);
  return (input) => {
    const memo = input.memo!;
    const budget = input.budget;
    if (memo.has(leaf)) {
      const steps = memo.steps(leaf);
      if (steps > 0) spendAgain(field, budget, steps);
      return memo.result(leaf);
    }
    const before = budget.spent;
    const result = fieldMatches(field, input.payload, budget);
    memo.remember(leaf, result, budget.spent - before);
    return result;
  };
}

const NEVER: Predicate = () => false;
const NO_KINDS: PossibleKinds = new Set<string>();

/** A compiled route set, and why each route that could not be compiled was refused. */
export interface CompiledRouteSet {
  set: RouteSet;
  /** By position: the reason a tree was refused (it then never fires), else undefined. */
  errors: (string | undefined)[];
}

/**
 * Validates and compiles trees into a route set. A tree that is invalid never fires; its
 * reason is in `errors` at its position.
 */
export function compileRouteSet(nodes: readonly FilterNode[]): CompiledRouteSet {
  const table = new LeafTable();
  const errors: (string | undefined)[] = [];
  const predicates: Predicate[] = [];
  const kinds: PossibleKinds[] = [];
  for (const node of nodes) {
    try {
      assertValidNode(node);
      predicates.push(compileTree(node, table.leaf));
      kinds.push(possibleKinds(node));
      errors.push(undefined);
    } catch (error) {
      predicates.push(NEVER);
      kinds.push(NO_KINDS);
      errors.push((error as Error).message);
    }
  }
  const index = new KindIndex(kinds);
  const leafCount = table.size;
  const set: RouteSet = {
    candidates: (kind) => index.candidates(kind),
    matches: (position, input) => predicates[position](input),
    newMemo: () => new LeafMemo(leafCount),
    leafCount,
  };
  return { set, errors };
}
