import { identifyPrincipal } from "@/lib/auth/principal.ts";
import { define } from "@/lib/state.ts";

/** The install flow acts for the session's person: resolved once onto `ctx.state.principal`. */
export const handler = define.middleware(identifyPrincipal);
