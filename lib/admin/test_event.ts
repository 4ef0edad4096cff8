/**
 * `POST /admin/api/groups/:id/test-event`: sends a sample event (a bundled one, or one of the
 * group's recent events) through the group's real ingress, signed by the server with the
 * group's current secret, so a person can prove a route end to end from the console. The
 * secret never leaves the server; the answer is the ingress's own (status, error, hint) plus
 * the delivery id to find the event by. Owners and admins of the group may send; each send is
 * audited (`webhook.test`), and each group may send at most {@link TEST_EVENTS_PER_MINUTE} a
 * minute (per server instance), so the button cannot flood the group's chats.
 */
import type { Kv } from "../store/backend/types.ts";
import type { Principal } from "../auth/principal.ts";
import { HttpError } from "../fresh/mod.ts";
import { utf8 } from "../encoding.ts";
import { HINT_HEADER } from "../ingest/answers.ts";
import { handleWebhook, type IngressDeps } from "../ingest/handle.ts";
import { signCustomBody } from "../providers/custom.ts";
import { signGiteaBody } from "../providers/gitea.ts";
import { signGithubBody } from "../providers/github.ts";
import { newAuditEntry, writeAuditEntry } from "../store/telemetry/audit.ts";
import { getEventRoutes } from "../store/delivery/event_routes.ts";
import { loadEvent } from "../store/delivery/events.ts";
import { readGroupEntry } from "../store/config/group_set.ts";
import { readGroupSecrets } from "../store/config/group_secrets.ts";
import type { Provider } from "../types.ts";
import { actorOf, requireRight } from "./guards.ts";

/** Test events a group may send per minute (per server instance). */
export const TEST_EVENTS_PER_MINUTE = 6;

const MINUTE_MS = 60_000;
const USER_AGENT = "Switchyard-Test-Event";

/** What to send: a bundled sample by id, or a recent event of the group by id. */
type TestEventSource = { sample: string } | { eventId: string };

/** The ingress's answer to the test event. */
export interface TestEventAnswer {
  /** The ingress's status: 200 when the event was stored for delivery. */
  status: number;
  accepted: boolean;
  duplicate?: boolean;
  /** The ingress's error, when it refused the event. */
  error?: string;
  /** What to change, when it refused the event. */
  hint?: string;
  /** The delivery id the event was sent with: the Events list shows it. */
  deliveryId: string;
  provider: Provider;
  /** Unix milliseconds, just before the event was sent. */
  sentAt: number;
}

/** What is sent: the provider, the JSON body and the event's headers (without a signature). */
interface Outgoing {
  provider: Provider;
  body: Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
}

const sentByStore = new WeakMap<Kv, Map<string, number[]>>();

/** Refuses (429) a group's send beyond its share this minute; otherwise notes it. */
function takeSendSlot(kv: Kv, groupId: string, now: number): void {
  let sent = sentByStore.get(kv);
  if (!sent) sentByStore.set(kv, sent = new Map());
  for (const [id, times] of sent) {
    if (times.every((at) => at <= now - MINUTE_MS)) sent.delete(id);
  }
  const recent = (sent.get(groupId) ?? []).filter((at) => at > now - MINUTE_MS);
  if (recent.length >= TEST_EVENTS_PER_MINUTE) {
    const wait = Math.max(1, Math.ceil((recent[0] + MINUTE_MS - now) / 1000));
    throw new HttpError(
      429,
      `At most ${TEST_EVENTS_PER_MINUTE} test events a minute per group: try again in ${wait} s`,
      { headers: { "retry-after": String(wait) } },
    );
  }
  sent.set(groupId, [...recent, now]);
}

const sampleFiles = new Map<string, Uint8Array<ArrayBuffer>>();

/** A bundled sample's id: its file name under `static/samples/github/` (no path separator). */
const SAMPLE_ID = /^[a-z][a-z_]*(\.[a-z_]+)*$/;

async function readSample(sampleId: string): Promise<Uint8Array<ArrayBuffer>> {
  const url = new URL(`../../static/samples/github/${sampleId}.json`, import.meta.url);
  try {
    // Re-serialised, so the body is compact JSON whatever the file's layout.
    return utf8(JSON.stringify(JSON.parse(await Deno.readTextFile(url))));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new HttpError(400, `sample: no bundled sample ${sampleId}`);
    }
    throw error;
  }
}

/** A bundled GitHub sample: its kind is its id's first part (`pull_request.opened`). */
async function sampleOutgoing(sampleId: string): Promise<Outgoing> {
  if (!SAMPLE_ID.test(sampleId)) throw new HttpError(400, `sample: no bundled sample ${sampleId}`);
  let body = sampleFiles.get(sampleId);
  if (!body) {
    body = await readSample(sampleId);
    sampleFiles.set(sampleId, body);
  }
  return { provider: "github", body, headers: { "x-github-event": sampleId.split(".")[0] } };
}

const EVENT_HEADERS: Record<Provider, readonly string[]> = {
  github: ["x-github-event"],
  gitea: ["x-gitea-event", "x-gitea-event-type", "x-forgejo-event", "x-forgejo-event-type"],
  custom: [],
};

async function recentOutgoing(kv: Kv, internalId: string, eventId: string) {
  const record = await getEventRoutes(kv, internalId, eventId);
  const event = record && await loadEvent(kv, eventId).catch(() => null);
  if (!event) {
    throw new HttpError(404, `The group has no recent event ${eventId} (or it is past retention)`);
  }
  const headers: Record<string, string> = {};
  for (const name of EVENT_HEADERS[event.provider]) {
    if (Object.hasOwn(event.headers, name)) headers[name] = event.headers[name];
  }
  if (event.provider === "github" && headers["x-github-event"] === undefined) {
    headers["x-github-event"] = event.kind;
  }
  if (event.provider === "gitea" && headers["x-gitea-event"] === undefined) {
    headers["x-gitea-event"] = event.kind;
  }
  return { provider: event.provider, body: utf8(JSON.stringify(event.payload)), headers };
}

/** The signature and delivery-id headers a sender of `provider` adds. */
async function signedHeaders(
  outgoing: Outgoing,
  secret: string,
  deliveryId: string,
): Promise<Record<string, string>> {
  switch (outgoing.provider) {
    case "github":
      return {
        "x-github-delivery": deliveryId,
        "x-hub-signature-256": await signGithubBody(secret, outgoing.body),
      };
    case "gitea":
      return {
        "x-gitea-delivery": deliveryId,
        "x-gitea-signature": await signGiteaBody(secret, outgoing.body),
      };
    case "custom":
      return { "x-switchyard-signature": await signCustomBody(secret, outgoing.body) };
  }
}

/**
 * Sends a test event into the group's ingress (`ingressUrl`) and answers what the ingress
 * said. 404 for an unknown group, 403 unless owner or admin (or super admin), 409 when the
 * group's webhook has no secret yet, 429 past the per-minute share.
 */
export async function sendTestEvent(
  deps: IngressDeps,
  ingressUrl: string,
  principal: Principal,
  groupId: string,
  source: TestEventSource,
): Promise<TestEventAnswer> {
  const { kv } = deps;
  const { entry } = await readGroupEntry(kv, groupId);
  if (entry === null) throw new HttpError(404, `Unknown group ${groupId}`);
  requireRight(principal, groupId, "edit");
  const now = Date.now();
  const secrets = await readGroupSecrets(kv, groupId, deps.encryptionKey, now);
  if (!secrets) {
    throw new HttpError(409, "The group's webhook has no secret yet: generate one first");
  }
  const outgoing = "sample" in source
    ? await sampleOutgoing(source.sample)
    : await recentOutgoing(kv, entry.internalId, source.eventId);
  takeSendSlot(kv, groupId, now);
  const deliveryId = `test-${crypto.randomUUID()}`;
  await writeAuditEntry(
    kv,
    newAuditEntry({
      actor: actorOf(principal),
      action: "webhook.test",
      groupId,
      detail: { ...source, deliveryId },
    }, now),
  );
  const request = new Request(ingressUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      ...outgoing.headers,
      ...await signedHeaders(outgoing, secrets.current.secret, deliveryId),
    },
    body: outgoing.body,
  });
  const response = await handleWebhook(deps, request, groupId);
  const answer = await response.json().catch(() => ({})) as { duplicate?: boolean; error?: string };
  const hint = response.headers.get(HINT_HEADER);
  return {
    status: response.status,
    accepted: response.ok,
    ...(answer.duplicate ? { duplicate: true } : {}),
    ...(typeof answer.error === "string" ? { error: answer.error } : {}),
    ...(hint ? { hint } : {}),
    deliveryId,
    provider: outgoing.provider,
    sentAt: now,
  };
}
