import { ADMIN_ENDPOINTS as E } from "@/lib/admin/endpoints.ts";
import { apiHandler } from "@/lib/admin/endpoint.ts";
import { steerGroupReplay } from "@/lib/admin/replays.ts";
import { define } from "@/lib/state.ts";

/** Pauses, resumes or cancels a bulk replay. */
export const handler = define.handlers({
  POST: apiHandler(
    E.steerReplay,
    ({ kv, principal, params, body }) =>
      steerGroupReplay(kv, principal, params.id, params.replayId, body),
  ),
});
