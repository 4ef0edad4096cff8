/**
 * Records a refused webhook request for the console's "Rejected" lists: sampled first
 * (`rejection_sampler.ts`), then stored (`lib/store/telemetry/rejections.ts`) with a few bounded header
 * values, never the body nor a signature. A known group's refusals go to its own list (by its
 * internal id); the instance-wide ingress and unknown groups share the global list.
 */
import type { Kv } from "../store/backend/types.ts";
import { detectProvider } from "../providers/detect.ts";
import { readGroupEntry } from "../store/config/group_set.ts";
import { type RejectionScope, storeRejection } from "../store/telemetry/rejections.ts";
import type { Rejection } from "./handle.ts";
import { admitRejection } from "./rejection_sampler.ts";

/** Longest header value kept on a record. */
const MAX_KEPT_CHARS = 200;

/** A header value cut to {@link MAX_KEPT_CHARS}, control characters replaced; absent when empty. */
function bounded(value: string | null | undefined, max = MAX_KEPT_CHARS): string | undefined {
  if (value === null || value === undefined) return undefined;
  // deno-lint-ignore no-control-regex
  const clean = value.slice(0, max).replace(/[\x00-\x1f\x7f]/g, "?").trim();
  return clean === "" ? undefined : clean;
}

/** The sender the headers suggest: its signature or event headers, else its user agent. */
function guessProvider(headers: Headers): string {
  const detected = detectProvider(headers);
  if (detected) return detected.provider;
  const agent = headers.get("user-agent") ?? "";
  if (agent.startsWith("GitHub-Hookshot")) return "github";
  if (/gitea|forgejo/i.test(agent)) return "gitea";
  return "unknown";
}

function firstForwarded(headers: Headers): string | undefined {
  return bounded(headers.get("x-forwarded-for")?.split(",", 1)[0], 64);
}

/**
 * Samples and stores one refused request; `address` is the connection's, when known. Answers
 * whether it was stored.
 */
export async function recordRejection(
  kv: Kv,
  rejection: Rejection,
  address?: string,
): Promise<boolean> {
  const bucket = rejection.knownGroup && rejection.groupId !== undefined
    ? `group:${rejection.groupId}`
    : "global";
  if (!admitRejection(kv, bucket, rejection.reason, rejection.at)) return false;
  let scope: RejectionScope = { type: "global" };
  if (bucket !== "global") {
    const { entry } = await readGroupEntry(kv, rejection.groupId!);
    if (entry === null) return false;
    scope = { type: "group", internalId: entry.internalId };
  }
  const { headers } = rejection;
  const values = {
    address: bounded(address, 64),
    forwardedFor: firstForwarded(headers),
    userAgent: bounded(headers.get("user-agent")),
    contentType: bounded(headers.get("content-type"), 100),
    event: bounded(
      headers.get("x-github-event") ?? headers.get("x-gitea-event") ??
        headers.get("x-forgejo-event"),
      100,
    ),
    deliveryId: bounded(
      headers.get("x-github-delivery") ?? headers.get("x-gitea-delivery") ??
        headers.get("x-forgejo-delivery") ?? headers.get("webhook-id"),
    ),
    unknownGroup: rejection.knownGroup ? undefined : bounded(rejection.groupId, 100),
  };
  await storeRejection(kv, scope, {
    at: rejection.at,
    reason: rejection.reason,
    status: rejection.status,
    provider: guessProvider(headers),
    ...Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)),
  });
  return true;
}
