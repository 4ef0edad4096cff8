/** The ingress's services, taken from the request state. */
import type { IngressDeps } from "./ingest/handle.ts";
import { recordRejection } from "./ingest/record_rejection.ts";
import { countIngest } from "./ops/ingest_counters.ts";
import type { State } from "./state.ts";

/** Builds the ingress dependencies from the shared services in `state`. */
export function ingressDeps(state: State): IngressDeps {
  return {
    kv: state.kv,
    secrets: state.config.webhookSecrets,
    encryptionKey: state.config.tokenEncryptionKey,
    log: (level, message, fields) => state.log[level](message, fields),
    observe: (result) => countIngest(state.kv, result),
    onRejected: async (rejection) => {
      await recordRejection(state.kv, rejection, state.remoteAddress);
    },
  };
}
