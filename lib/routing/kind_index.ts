/**
 * The event kinds a filter tree can possibly match, read from its `event` leaves, so that
 * route selection skips the routes that cannot fire for an event's kind without evaluating
 * them. The analysis is conservative: a field leaf, a `not`, or a kind written with `*`
 * count as "any kind". Kinds compare without regard to case, as the event filter does.
 * Browser-safe.
 */
import type { FilterNode } from "../types.ts";

/** Every kind, or the lower-cased kinds a tree can match (an empty set: none). */
export type PossibleKinds = "any" | ReadonlySet<string>;

function eventLeafKinds(value: string | readonly string[]): PossibleKinds {
  const kinds = new Set<string>();
  for (const pattern of typeof value === "string" ? [value] : value) {
    const kind = pattern.toLowerCase().split(".")[0];
    if (kind.includes("*")) return "any";
    kinds.add(kind);
  }
  return kinds;
}

function intersect(left: PossibleKinds, right: PossibleKinds): PossibleKinds {
  if (left === "any") return right;
  if (right === "any") return left;
  const both = new Set<string>();
  for (const kind of left) if (right.has(kind)) both.add(kind);
  return both;
}

function unite(left: PossibleKinds, right: PossibleKinds): PossibleKinds {
  if (left === "any" || right === "any") return "any";
  return new Set([...left, ...right]);
}

/**
 * The kinds a valid tree can match: an `all` can match only kinds every child can, an `any`
 * the kinds of its children together (none when empty); a `not` or a field leaf any kind.
 */
export function possibleKinds(node: FilterNode): PossibleKinds {
  if ("all" in node) {
    let kinds: PossibleKinds = "any";
    for (const child of node.all) kinds = intersect(kinds, possibleKinds(child));
    return kinds;
  }
  if ("any" in node) {
    let kinds: PossibleKinds = new Set<string>();
    for (const child of node.any) {
      kinds = unite(kinds, possibleKinds(child));
      if (kinds === "any") return kinds;
    }
    return kinds;
  }
  if ("not" in node || node.type === "field") return "any";
  return eventLeafKinds(node.value);
}

/** Route positions by the kinds they can match; positions stay in stored order. */
export class KindIndex {
  readonly #byKind = new Map<string, number[]>();
  readonly #anyKind: number[] = [];

  /** Indexes routes by the kinds each can match (`kinds[i]` for the route at position i). */
  constructor(kinds: readonly PossibleKinds[]) {
    const named = new Map<string, number[]>();
    kinds.forEach((possible, position) => {
      if (possible === "any") {
        this.#anyKind.push(position);
        return;
      }
      for (const kind of possible) {
        const list = named.get(kind);
        if (list) list.push(position);
        else named.set(kind, [position]);
      }
    });
    for (const [kind, positions] of named) {
      this.#byKind.set(kind, mergeSorted(positions, this.#anyKind));
    }
  }

  /** The positions of the routes that can match an event of `kind`, in stored order. */
  candidates(kind: string): readonly number[] {
    return this.#byKind.get(kind.toLowerCase()) ?? this.#anyKind;
  }
}

function mergeSorted(left: readonly number[], right: readonly number[]): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length || (i < left.length && left[i] < right[j])) merged.push(left[i++]);
    else merged.push(right[j++]);
  }
  return merged;
}
