/**
 * `GET /health`: liveness (`{ status: "ok" }`, 503 when KV cannot be read) and, with `?ready`,
 * readiness. Whether an instance is ready is public (a load balancer needs no secret); the
 * details (queue depths, the oldest waiting event's age) tell how busy the instance is, so they
 * go only to the bearer of METRICS_TOKEN, the same check as `/metrics`.
 */
import type { Kv } from "../store/backend/types.ts";
import { checkHealth } from "../store/telemetry/health.ts";
import { isMetricsBearer } from "./metrics_access.ts";
import { readReadiness } from "./readiness.ts";

const UNAVAILABLE = { status: "unavailable", error: "Storage is unavailable" };

/** What a health request asks and carries. */
interface HealthRequest {
  /** `?ready` was given. */
  ready: boolean;
  /** The request's `Authorization` header. */
  authorization: string | null;
  /** METRICS_TOKEN, when set. */
  metricsToken?: string;
}

async function showsDetails(request: HealthRequest): Promise<boolean> {
  return request.metricsToken !== undefined &&
    await isMetricsBearer(request.authorization, request.metricsToken);
}

/** The answer to `GET /health` (see the module comment). */
export async function healthResponse(kv: Kv, request: HealthRequest): Promise<Response> {
  if (!request.ready) {
    if (await checkHealth(kv)) return Response.json({ status: "ok" });
    return Response.json(UNAVAILABLE, { status: 503 });
  }
  const readiness = await readReadiness(kv);
  if (!readiness) return Response.json({ ...UNAVAILABLE, ready: false }, { status: 503 });
  if (await showsDetails(request)) return Response.json(readiness);
  return Response.json({ status: readiness.status, ready: readiness.ready });
}
