import { identifyBearer } from "../../lib/auth/bearer.ts";
import { define } from "../../lib/state.ts";

/** Every action API call is authenticated once: the bearer's user goes onto `ctx.state`. */
export const handler = define.middleware(identifyBearer);
