/**
 * Routes written by earlier versions, read in today's form: stored routes (`getRoutes`) and
 * the routes of an imported configuration document. A digest threshold of 0 (then: every unit
 * of a window into the digest) is no longer valid, since thresholds are positive integers, and
 * is read as 1: the first unit of a window is sent as usual, the rest are gathered
 * (docs/noise.md). Nothing is rewritten in storage; the next replacement stores the route as
 * read.
 */

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `route` (a stored route, or any value still to be validated as one) in today's form. */
export function upgradeEarlierRoute<T>(route: T): T {
  if (!isFields(route) || !Object.hasOwn(route, "digest")) return route;
  const digest = route.digest;
  if (!isFields(digest) || digest.threshold !== 0) return route;
  return { ...route, digest: { ...digest, threshold: 1 } };
}
