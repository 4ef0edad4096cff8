/**
 * Hono's default router behind a method guard. Hono's routers look handlers
 * up by method in plain objects, so a request whose method is an inherited
 * property name (`constructor`, `toString`) crashes the lookup. Any method
 * outside the standard ones is looked up under a neutral name instead; the
 * routes (mounted for every method) then answer it 405.
 */
import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

const STANDARD_METHODS = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "QUERY",
  "ALL",
]);
const OTHER_METHOD = "OTHER-METHOD";

/** A router that matches like Hono's default one and never crashes on a method name. */
export class MethodSafeRouter<T> implements Router<T> {
  readonly name = "MethodSafeRouter";
  readonly #inner: Router<T> = new SmartRouter<T>({
    routers: [new RegExpRouter(), new TrieRouter()],
  });

  add(method: string, path: string, handler: T): void {
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    return this.#inner.match(STANDARD_METHODS.has(method) ? method : OTHER_METHOD, path);
  }
}
