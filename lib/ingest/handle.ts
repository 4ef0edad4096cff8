/**
 * The webhook ingress: `POST /webhook` (global secrets, provider detected from
 * the headers) and `POST /webhook/:groupId` (the group's own secret, whatever
 * the provider). Checks run in a fixed order: size (413), signature over the raw body
 * (401), event header and JSON object body (400; a URL-encoded form body is read for its
 * `payload` field, see `event_body.ts`); only then de-duplication and
 * the durable accept (group-committed with the events accepted at the same time,
 * answered only once the commit holding the event succeeded). Matching and sending happen later, in the queue worker.
 * Whatever becomes part of a KV key or the stored event is bounded first: the
 * group id, the delivery id (at most 200 printable ASCII characters) and the
 * action (at most 64 characters) are refused with 404 / 400 otherwise, so an
 * event that is acknowledged can always be stored and delivered.
 * Every refusal carries its reason (`answers.ts`, with what to change in `X-Switchyard-Hint`)
 * and is told to `onRejected`, which samples it into the console's rejected lists
 * (`record_rejection.ts`); the accept path is unchanged.
 */
import type { Kv } from "../store/backend/types.ts";
import { detectProvider } from "../providers/detect.ts";
import type {
  EventName,
  ProviderAdapter,
  SignedRequest,
  Verification,
} from "../providers/adapter.ts";
import {
  isNonceReplayed,
  markDeliveryAnswered,
  type SaveOutcome,
  wasDeliverySeen,
} from "../store/delivery/events.ts";
import { saveEventGrouped } from "../store/delivery/group_commit.ts";
import { readGroupEntry } from "../store/config/group_set.ts";
import {
  noteSecretUsed,
  readGroupSecrets,
  type SecretSlot,
} from "../store/config/group_secrets.ts";
import { fromStrictUtf8 } from "../encoding.ts";
import type { Provider, Scope } from "../types.ts";
import { isBoundedAction, isId } from "../ids.ts";
import { WEBHOOK_BODY_BYTES } from "../limits.ts";
import { type BodyRefusal, readBody } from "../request_body.ts";
import { isPassingStoreError } from "../store/transient.ts";
import {
  accepted,
  duplicate,
  INGRESS_ERRORS,
  json,
  refusal,
  type RejectionReason,
  rejectionReasonOf,
  unavailable,
} from "./answers.ts";
import { pickHeaders } from "./headers.ts";
import { applyInstallationEvent } from "./installation.ts";
import { eventJsonOf } from "./event_body.ts";

/** A structured log line from the ingress. */
type IngressLog = (
  level: "info" | "warn" | "error",
  message: string,
  fields?: Record<string, unknown>,
) => void;

/** What the ingress needs from the application. */
export interface IngressDeps {
  kv: Kv;
  /** Global secrets per provider; two values while a secret rotates. */
  secrets: { github: string[]; gitea: string[]; custom: string[] };
  /** TOKEN_ENCRYPTION_KEY: group secrets are stored sealed under it. */
  encryptionKey?: string;
  /** Clock in Unix milliseconds (defaults to `Date.now`). */
  now?: () => number;
  /** Deadline for the whole body (defaults to `BODY_TIMEOUT_MS`, 10 s). */
  bodyTimeoutMs?: number;
  log?: IngressLog;
  /** Told what became of each request (for the ingest counters). */
  observe?: (result: IngestResult) => void;
  /** Told of each refused request, for the console's rejected list (sampled there). */
  onRejected?: (rejection: Rejection) => Promise<void>;
}

/** A refused request as the ingress tells it: why, and where it was sent. */
export interface Rejection {
  reason: RejectionReason;
  status: number;
  headers: Headers;
  /** The path's group id (`/webhook/:groupId`), known or not; undefined for `/webhook`. */
  groupId?: string;
  /** Whether the path's group exists (false for an unknown group). */
  knownGroup: boolean;
  at: number;
}

/** What became of one webhook request: an event stored or seen again, or a refusal. */
export type IngestResult =
  | { outcome: "accepted" | "duplicate"; provider: Provider }
  | { outcome: "refused" | "failed"; status: number };

/** Secrets tried together, and what to note when a request they verify is accepted. */
interface SecretSet {
  secrets: readonly string[];
  onAccepted?: () => Promise<void>;
}

interface Ingress {
  scope: Scope;
  /** The secret sets to try, in order. */
  secretsFor: (provider: Provider) => readonly SecretSet[];
}

async function resolveIngress(
  deps: IngressDeps,
  groupId: string | undefined,
  now: number,
): Promise<Ingress | null> {
  if (groupId === undefined) {
    return {
      scope: { type: "global" },
      secretsFor: (provider) => [{ secrets: deps.secrets[provider] }],
    };
  }
  const [{ entry }, read] = await Promise.all([
    readGroupEntry(deps.kv, groupId),
    readGroupSecrets(deps.kv, groupId, deps.encryptionKey, now),
  ]);
  if (!entry || !read) return null;
  const setOf = (secret: string, slot: SecretSlot): SecretSet => ({
    secrets: [secret],
    onAccepted: () => noteSecretUsed(deps.kv, read, slot, now),
  });
  const sets = [setOf(read.current.secret, "current")];
  if (read.previous) sets.push(setOf(read.previous.secret, "previous"));
  const scope: Scope = { type: "group", groupId, internalId: entry.internalId };
  return { scope, secretsFor: () => sets };
}

/** Verifies the request with each secret set in turn; the set that matched, if one did. */
async function verifyWithAny(
  adapter: ProviderAdapter,
  request: Omit<SignedRequest, "secrets">,
  sets: readonly SecretSet[],
): Promise<{ verification: Verification; matched?: SecretSet }> {
  let verification: Verification = { ok: false, reason: "no secret is configured" };
  for (const set of sets) {
    if (set.secrets.length === 0) continue;
    verification = await adapter.verify({ ...request, secrets: set.secrets });
    if (verification.ok) return { verification, matched: set };
  }
  return { verification };
}

/**
 * Notes the secret that verified an accepted request (its last-used time); a refused or
 * failed request changes nothing, and a failed note never fails the request.
 */
async function noteAccepted(
  deps: IngressDeps,
  matched: SecretSet | undefined,
  response: Response,
): Promise<Response> {
  if (response.status !== 200 || !matched?.onAccepted) return response;
  await matched.onAccepted().catch((error) =>
    deps.log?.("warn", "webhook secret last-used not recorded", { error: String(error) })
  );
  return response;
}

/** The body as a JSON object; null when it is not valid UTF-8 JSON holding an object. */
function parseJsonObject(body: Uint8Array): Record<string, unknown> | null {
  const text = fromStrictUtf8(body);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : null;
  } catch {
    return null;
  }
}

/**
 * Starts the durable accept of an event and answers once it is committed. Not itself
 * async: while the commit runs, only the answer's few fields and the prepared event are kept
 * (an async function keeps all its variables across an `await`); the parsed payload is handed
 * on with the event, for this process's fan-out (lib/store/delivery/recent_events.ts).
 */
function acceptEvent(
  deps: IngressDeps,
  request: Request,
  ingress: Ingress,
  adapter: ProviderAdapter,
  name: EventName,
  body: Uint8Array,
  payload: Record<string, unknown>,
  deliveryId: string | undefined,
  nonce: string | undefined,
  now: number,
): Promise<Response> {
  const saving = saveEventGrouped(deps.kv, {
    provider: adapter.provider,
    kind: name.kind,
    action: name.action,
    deliveryId,
    scope: ingress.scope,
    receivedAt: now,
    headers: pickHeaders(request.headers),
    body,
    nonce,
    payload,
  });
  return answerSaved(deps, adapter.provider, { kind: name.kind, action: name.action }, saving);
}

async function answerSaved(
  deps: IngressDeps,
  provider: Provider,
  name: EventName,
  saving: Promise<SaveOutcome>,
): Promise<Response> {
  const log = deps.log ?? (() => {});
  const outcome = await saving;
  if (outcome.status === "nonce_reused") {
    log("warn", "webhook refused: nonce already used", { provider });
    return refusal(401, INGRESS_ERRORS.invalidSignature, "replayed_nonce");
  }
  if (outcome.status === "duplicate") {
    deps.observe?.({ outcome: "duplicate", provider });
    log("info", "webhook duplicate acknowledged", { eventId: outcome.eventId, provider });
    return duplicate();
  }
  deps.observe?.({ outcome: "accepted", provider });
  log("info", "webhook accepted", {
    eventId: outcome.eventId,
    provider,
    kind: name.kind,
    action: name.action,
  });
  return accepted();
}

function bodyRefusal(refused: BodyRefusal): Response {
  switch (refused) {
    case "too_large":
      return refusal(413, INGRESS_ERRORS.tooLarge, "too_large");
    case "timeout":
      return refusal(408, INGRESS_ERRORS.timeout, "timeout");
    case "unreadable":
      return refusal(400, INGRESS_ERRORS.unreadable, "unreadable");
  }
}

async function ingest(
  deps: IngressDeps,
  request: Request,
  groupId: string | undefined,
): Promise<Response> {
  const log = deps.log ?? (() => {});
  const now = (deps.now ?? Date.now)();
  const ingress = groupId === undefined || isId("group", groupId)
    ? await resolveIngress(deps, groupId, now)
    : null;
  if (!ingress) {
    request.body?.cancel().catch(() => {});
    return refusal(404, INGRESS_ERRORS.unknownGroup, "unknown_group");
  }
  const read = await readBody(request, {
    maxBytes: WEBHOOK_BODY_BYTES,
    timeoutMs: deps.bodyTimeoutMs,
  });
  if (!read.ok) return bodyRefusal(read.refusal);
  const body = read.bytes;

  const adapter = detectProvider(request.headers);
  if (!adapter) {
    log("warn", "webhook refused: no known signature or event header");
    return refusal(401, INGRESS_ERRORS.invalidSignature, "missing_headers");
  }
  const secretSets = ingress.secretsFor(adapter.provider);
  if (secretSets.every((set) => set.secrets.length === 0)) {
    log("warn", "webhook refused: no secret is configured", { provider: adapter.provider });
    return refusal(401, INGRESS_ERRORS.invalidSignature, "no_secret");
  }
  const { verification, matched } = await verifyWithAny(
    adapter,
    { headers: request.headers, body, nowMs: now },
    secretSets,
  );
  if (!verification.ok) {
    log("warn", "webhook refused: invalid signature", {
      provider: adapter.provider,
      reason: verification.reason,
    });
    return refusal(401, INGRESS_ERRORS.invalidSignature, "bad_signature");
  }
  const nonce = verification.nonce;
  const deliveryId = adapter.deliveryId(request.headers);
  if (deliveryId !== undefined && !isId("deliveryId", deliveryId)) {
    log("warn", "webhook refused: malformed delivery id", { provider: adapter.provider });
    return refusal(400, INGRESS_ERRORS.invalidDeliveryId, "bad_delivery_id");
  }
  if (
    nonce !== undefined &&
    await isNonceReplayed(
      deps.kv,
      { scope: ingress.scope, provider: adapter.provider, deliveryId, nonce },
      now,
    )
  ) {
    log("warn", "webhook refused: nonce already used", { provider: adapter.provider });
    return refusal(401, INGRESS_ERRORS.invalidSignature, "replayed_nonce");
  }

  const eventJson = eventJsonOf(request.headers, body);
  if (!eventJson) return refusal(400, INGRESS_ERRORS.invalidEvent, "form_without_payload");
  const payload = parseJsonObject(eventJson);
  if (!payload) return refusal(400, INGRESS_ERRORS.invalidEvent, "not_json");
  const name = adapter.eventName(request.headers, payload);
  if (!name || !isBoundedAction(name.action)) {
    return refusal(400, INGRESS_ERRORS.invalidEvent, "unknown_event");
  }

  const installation = adapter.provider === "github" && name.kind === "installation" &&
    ingress.scope.type === "global";
  if (name.kind === "ping" || installation) {
    const delivery = deliveryId === undefined
      ? undefined
      : { scope: ingress.scope, provider: adapter.provider, deliveryId };
    if (delivery && await wasDeliverySeen(deps.kv, delivery, now)) {
      deps.observe?.({ outcome: "duplicate", provider: adapter.provider });
      return duplicate();
    }
    if (installation) {
      const outcome = await applyInstallationEvent(deps.kv, name.action, payload, now);
      if (!outcome) return refusal(400, INGRESS_ERRORS.invalidEvent, "unknown_event");
      log("info", "installation event applied", { action: name.action, ...outcome });
    }
    if (delivery) await markDeliveryAnswered(deps.kv, delivery, now);
    return await noteAccepted(deps, matched, accepted());
  }
  // Returned without `await`, so this function's variables (the raw body among them) are not
  // kept while the event waits for its commit.
  return acceptEvent(
    deps,
    request,
    ingress,
    adapter,
    name,
    eventJson,
    payload,
    deliveryId,
    nonce,
    now,
  ).then((response) => noteAccepted(deps, matched, response));
}

/**
 * Handles one webhook request and answers with JSON: 200 `{ ok: true }` once
 * the event is durably stored (or acknowledged, for `ping` and `installation`),
 * 200 `{ ok: true, duplicate: true }` for a delivery seen within 5 minutes,
 * 404 for an unknown group or one without a secret, 413 / 401 / 400 with the
 * texts of `answers.ts`, 408 when the body does not arrive within the deadline,
 * 503 with `Retry-After` when the store is unreachable or busy for a moment (nothing was
 * stored: the sender may send it again), 500 when the store fails otherwise. `groupId` selects the group's
 * ingress; without it the global secrets apply.
 */
export async function handleWebhook(
  deps: IngressDeps,
  request: Request,
  groupId?: string,
): Promise<Response> {
  let response: Response;
  try {
    response = await ingest(deps, request, groupId);
  } catch (error) {
    const passing = isPassingStoreError(error);
    (deps.log ?? (() => {}))(
      passing ? "warn" : "error",
      passing ? "webhook refused: store unavailable" : "webhook ingress failed",
      { error: String(error) },
    );
    response = passing ? unavailable() : json(500, { error: INGRESS_ERRORS.internal });
  }
  if (response.status >= 400) {
    deps.observe?.({
      outcome: response.status >= 500 ? "failed" : "refused",
      status: response.status,
    });
  }
  const reason = rejectionReasonOf(response);
  if (reason !== undefined && deps.onRejected) {
    await deps.onRejected({
      reason,
      status: response.status,
      headers: request.headers,
      groupId,
      knownGroup: reason !== "unknown_group",
      at: (deps.now ?? Date.now)(),
    }).catch((error) =>
      (deps.log ?? (() => {}))("warn", "rejected request not recorded", { error: String(error) })
    );
  }
  return response;
}
