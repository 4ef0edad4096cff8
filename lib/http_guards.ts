/**
 * Checks a route makes before it acts, answered as an `HttpError`: an id from outside has its
 * format (400, formats in `ids.ts`), and a feature the route needs is configured (503,
 * features in `config.ts`).
 */
import { type Config, type Feature, FEATURES } from "./config.ts";
import { HttpError } from "./fresh/http_error.ts";
import { ID_FORMATS, type IdKind, isId } from "./ids.ts";

/**
 * `value` when it is an id of `kind`; otherwise throws 400 `<name>: must be <format>`, `name`
 * being what the caller called it (`id`, `token`, `userId` …).
 */
export function requireId(kind: IdKind, value: unknown, name: string): string {
  if (isId(kind, value)) return value;
  throw new HttpError(400, `${name}: must be ${ID_FORMATS[kind].description}`);
}

/** Throws 503 `<feature> is not configured` when the feature's settings are absent. */
export function requireFeature(config: Config, feature: Feature): void {
  if (!FEATURES[feature](config)) throw new HttpError(503, `${feature} is not configured`);
}
