/** The per-request state every route sees, and the typed `define` helpers. */
import type { Config } from "./config.ts";
import { createDefine } from "./fresh/mod.ts";
import type { Logger } from "./log.ts";

/** Per-request state: the request id, the shared services and a request-scoped logger. */
export interface State {
  requestId: string;
  kv: Deno.Kv;
  config: Config;
  log: Logger;
}

/**
 * Typed helpers for route modules: `define.handlers({...})`,
 * `define.page<typeof handler>(...)`, `define.middleware(...)`.
 */
export const define = createDefine<State>();
