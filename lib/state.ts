/** The per-request state every route sees, and the typed `define` helpers. */
import type { Kv } from "./store/backend/types.ts";
import type { Config } from "./config.ts";
import { createDefine } from "./fresh/mod.ts";
import type { Logger } from "./log.ts";
import type { PlatformAdapter } from "./platform/adapter.ts";
import type { Principal } from "./types.ts";

/**
 * Per-request state: the request id, the shared services, a request-scoped logger, and who is
 * asking, which the folder's `_middleware.ts` resolves once before any handler runs.
 */
export interface State {
  requestId: string;
  kv: Kv;
  config: Config;
  log: Logger;
  /**
   * The chat platforms' adapters by platform name, shared with the delivery worker of the
   * process, so its rate limiters see the calls requests make too (a chat link's confirmation).
   */
  adapters: ReadonlyMap<string, PlatformAdapter>;
  /**
   * The session's person (`routes/admin/`, `routes/auth/github/install/`, `routes/auth/token/`):
   * null when nobody is signed in, undefined where no middleware resolves it. Handlers read it
   * with `principalOf(ctx)` (`lib/auth/principal.ts`).
   */
  principal?: Principal | null;
  /**
   * The action API's caller, the GitHub user id of the bearer token (`routes/api/`). Handlers
   * read it with `bearerUserOf(ctx)` (`lib/auth/bearer.ts`).
   */
  bearerUserId?: string;
  /** The connection's address, when the server knows it (shown on rejected webhooks). */
  remoteAddress?: string;
}

/**
 * Typed helpers for route modules: `define.handlers({...})`,
 * `define.page<typeof handler>(...)`, `define.middleware(...)`.
 */
export const define = createDefine<State>();
