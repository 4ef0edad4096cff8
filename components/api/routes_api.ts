/**
 * A group's routes as the route pages read and write them through the admin API: the read
 * answers the `ETag`, the write sends it as `If-Match` and answers the new one (empty when
 * none came). Failures are `ApiError`s (409: changed elsewhere). Browser-only.
 */
import type { Route } from "../../lib/types.ts";
import { adminApi } from "./admin_api.ts";

/** The group's routes as stored now. */
export async function readRoutes(groupId: string): Promise<{ items: Route[]; etag: string }> {
  const { data, etag } = await adminApi("GET /admin/api/groups/{id}/routes", {
    params: { id: groupId },
  });
  return { items: data.routes, etag: etag ?? "" };
}

/** Replaces the group's routes if they are still at `etag`; answers the new `ETag`. */
export async function writeRoutes(groupId: string, routes: Route[], etag: string) {
  const answer = await adminApi("PUT /admin/api/groups/{id}/routes", {
    params: { id: groupId },
    body: { routes },
    etag,
  });
  return answer.etag ?? "";
}
