/**
 * Accepted events: metadata, raw payload chunks, the de-duplication mark, the
 * single-use nonce, the delivery job and its pending fan-out mark.
 *
 * The payload is kept byte for byte: its raw bytes are compressed (raw
 * deflate, fast level; webhook JSON shrinks about six-fold, which makes each
 * commit cheaper) unless that does not make them smaller, and
 * {@link loadEventBody} gives back exactly the bytes received.
 *
 * Stored bytes that fit in the event's record with room to spare (the usual
 * case: a 28 KB payload compresses to about 4.5 KB) are kept in the record
 * itself (`inline`), one value per event. Deno KV limits a value to 64 KiB and
 * one atomic commit to 800 KiB of mutations, so a payload of up to 1 MB cannot
 * always be written in a single atomic operation: larger stored bytes are
 * split in chunks of at most
 * {@link PAYLOAD_CHUNK_BYTES}; the first {@link INLINE_CHUNKS} chunks (600,000
 * stored bytes, which in practice holds any compressed webhook JSON of up to
 * 1 MB) go into the accepting commit, and any further chunks are written just
 * before it under the fresh event id.
 * The accepting commit checks the dedup mark and nonce, and sets the metadata,
 * the inline chunks, the marks (the pending fan-out's included) and the deliver
 * job (lib/store/delivery/jobs.ts) together: until it succeeds nothing refers to the early chunks, and if it
 * fails they are deleted. A crash between the two leaves unreferenced chunks,
 * which expire on their own one hour after the event would have. Every record
 * of an event expires after {@link EVENT_RETENTION_MS}.
 */
import type { AtomicOperation, Kv, KvEntryMaybe, KvKey } from "../backend/types.ts";
import { monotonicUlids } from "../../ulid.ts";
import { sha256Hex } from "../../crypto.ts";
import { fromUtf8 } from "../../encoding.ts";
import type { ForgeEvent, Provider, Scope } from "../../types.ts";
import {
  dedupKey,
  eventChunkKey,
  eventChunksPrefix,
  eventKey,
  eventsPrefix,
  nonceKey,
} from "../keys.ts";
import { readIds } from "../id_range.ts";
import { addDeliverJob } from "./fan_out_jobs.ts";
import { markFanOutPending } from "./pending_fan_outs.ts";
import { rememberAccepted, takeRecentEvent } from "./recent_events.ts";

export { type DeliverJob, isDeliverJob, requeueUndeliveredJobs } from "./fan_out_jobs.ts";

/** A delivery id seen within this window is a duplicate. */
export const DEDUP_WINDOW_MS = 5 * 60 * 1000;
/**
 * A single-use nonce (a custom sender's `X-Switchyard-Nonce`, a Standard
 * Webhooks `webhook-id`) is remembered this long: the ±5 minute replay window
 * spans 10 minutes, plus a minute for clock skew between instances, so a
 * signed request is refused for as long as its timestamp is accepted.
 */
export const NONCE_WINDOW_MS = 11 * 60 * 1000;
/** How long an accepted event stays readable (the longest a job may be delayed). */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Largest payload chunk, safely under KV's 64 KiB value limit. */
export const PAYLOAD_CHUNK_BYTES = 60_000;
/** Chunks written inside the accepting commit. */
export const INLINE_CHUNKS = 10;
/**
 * Most bytes an event's record holds with its stored payload kept inline: KV allows 64 KiB
 * per value, and a record's other fields (kept headers, ids) take at most about 12,000
 * characters, counted twice (a string may be stored two bytes per character).
 */
const INLINE_RECORD_BYTES = 60_000;

const CHUNKS_PER_EARLY_BATCH = 12;
/** How much longer than the event the payload chunks of an unfinished write are kept. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const COMMIT_ATTEMPTS = 5;
const MAX_KEY_PART_LENGTH = 200;

/** How the payload bytes are stored. */
type PayloadEncoding = "deflate-raw" | "identity";

/** An event as stored: everything but the payload, which lives in chunks. */
interface StoredEventMeta extends Omit<ForgeEvent, "payload"> {
  /** Size of the payload as received. */
  payloadBytes: number;
  payloadEncoding: PayloadEncoding;
  /** Size of the stored (possibly compressed) bytes, over all chunks. */
  storedBytes: number;
  /** Chunks under `["event_chunks", id, i]` (0 when the bytes are `inline`). */
  chunkCount: number;
  /** The stored bytes, when they are kept in this record rather than in chunks. */
  inline?: Uint8Array;
}

interface SeenMark {
  seenAt: number;
  eventId?: string;
}

/** An event to accept: its fields and the raw body it came with. */
export interface NewEvent extends Omit<ForgeEvent, "id" | "payload"> {
  /** The raw JSON body, stored byte for byte. */
  body: Uint8Array;
  /** The sender's single-use nonce, consumed in the same commit. */
  nonce?: string;
  /**
   * The body as the ingress parsed it, when it did: kept for this process's fan-out once the
   * event is committed (./recent_events.ts), so the fan-out need not parse it again.
   */
  payload?: Record<string, unknown>;
}

/** What became of an event handed to {@link saveEvent}. */
export type SaveOutcome =
  | { status: "accepted"; eventId: string }
  | { status: "duplicate"; eventId?: string }
  | { status: "nonce_reused" };

const nextEventId = monotonicUlids();

async function keyPart(value: string): Promise<string> {
  return value.length <= MAX_KEY_PART_LENGTH ? value : `sha256:${await sha256Hex(value)}`;
}

function isFresh(mark: SeenMark | null, now: number, windowMs: number): boolean {
  return mark !== null && now - mark.seenAt < windowMs;
}

async function nonceMarkKey(scope: Scope, nonce: string): Promise<KvKey> {
  return nonceKey(scope, await keyPart(nonce));
}

async function dedupMarkKey(
  scope: Scope,
  provider: Provider,
  deliveryId: string,
): Promise<KvKey> {
  return dedupKey(scope, provider, await keyPart(deliveryId));
}

/** What tells a request's repeats apart: its scope, provider, delivery id and nonce. */
interface RepeatCheck {
  scope: Scope;
  provider: Provider;
  deliveryId?: string;
  nonce: string;
}

/** A delivery the ingress answers without storing an event (`ping`, `installation`). */
export interface AnsweredDelivery {
  scope: Scope;
  provider: Provider;
  deliveryId: string;
}

/** Whether the delivery was seen (stored or answered) within {@link DEDUP_WINDOW_MS} of `now`. */
export async function wasDeliverySeen(
  kv: Kv,
  delivery: AnsweredDelivery,
  now: number,
): Promise<boolean> {
  const key = await dedupMarkKey(delivery.scope, delivery.provider, delivery.deliveryId);
  return isFresh((await kv.get<SeenMark>(key)).value, now, DEDUP_WINDOW_MS);
}

/** Marks a delivery answered without an event, so a repeat within the window is a duplicate. */
export async function markDeliveryAnswered(
  kv: Kv,
  delivery: AnsweredDelivery,
  now: number,
): Promise<void> {
  const dedup = await dedupMarkKey(delivery.scope, delivery.provider, delivery.deliveryId);
  await kv.set(dedup, { seenAt: now } satisfies SeenMark, { expireIn: DEDUP_WINDOW_MS });
}

/**
 * True when the nonce was used in this scope within {@link NONCE_WINDOW_MS} of
 * `now`, unless the request repeats a delivery id seen within
 * {@link DEDUP_WINDOW_MS}: that is a sender's retry, answered as a duplicate.
 */
export async function isNonceReplayed(
  kv: Kv,
  request: RepeatCheck,
  now: number,
): Promise<boolean> {
  const nonce = await kv.get<SeenMark>(await nonceMarkKey(request.scope, request.nonce));
  if (!isFresh(nonce.value, now, NONCE_WINDOW_MS)) return false;
  if (request.deliveryId === undefined) return true;
  return !await wasDeliverySeen(kv, { ...request, deliveryId: request.deliveryId }, now);
}

let zlib: Promise<typeof import("node:zlib")> | undefined;

/**
 * `node:zlib`, imported on first use: importing it loads Node's compatibility layer, which
 * would otherwise add tens of milliseconds to every start.
 */
function loadZlib(): Promise<typeof import("node:zlib")> {
  return zlib ??= import("node:zlib");
}

async function encodePayload(
  body: Uint8Array,
): Promise<{ encoding: PayloadEncoding; bytes: Uint8Array }> {
  // zlib's output is a view of a 16 KB buffer: copied, a waiting event holds only its bytes.
  const compressed = new Uint8Array((await loadZlib()).deflateRawSync(body, { level: 1 }));
  return compressed.length < body.length
    ? { encoding: "deflate-raw", bytes: compressed }
    : { encoding: "identity", bytes: body };
}

function splitChunks(body: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < body.length; start += PAYLOAD_CHUNK_BYTES) {
    chunks.push(body.subarray(start, start + PAYLOAD_CHUNK_BYTES));
  }
  return chunks;
}

async function writeEarlyChunks(kv: Kv, eventId: string, chunks: Uint8Array[]) {
  const expireIn = EVENT_RETENTION_MS + ORPHAN_GRACE_MS;
  for (let index = INLINE_CHUNKS; index < chunks.length; index += CHUNKS_PER_EARLY_BATCH) {
    const op = kv.atomic();
    const end = Math.min(index + CHUNKS_PER_EARLY_BATCH, chunks.length);
    for (let i = index; i < end; i++) op.set(eventChunkKey(eventId, i), chunks[i], { expireIn });
    await op.commit();
  }
}

async function deleteEarlyChunks(kv: Kv, eventId: string, chunkCount: number) {
  if (chunkCount <= INLINE_CHUNKS) return;
  const op = kv.atomic();
  for (let i = INLINE_CHUNKS; i < chunkCount; i++) op.delete(eventChunkKey(eventId, i));
  await op.commit();
}

/** An event ready to commit: its id, stored form and the keys of its marks. */
export interface PreparedEvent {
  eventId: string;
  receivedAt: number;
  meta: StoredEventMeta;
  chunks: Uint8Array[];
  /** The dedup mark's key, when the event has a delivery id. */
  dedup: KvKey | null;
  /** The nonce mark's key, when the event has a nonce. */
  nonceMark: KvKey | null;
  /** Characters of the record's fields besides the stored payload, as JSON. */
  metaChars: number;
  /** The parsed body given with the event, remembered once it is committed. */
  payload?: Record<string, unknown>;
}

/** Gives an event its id, compresses and splits its payload, and builds its marks' keys. */
export async function prepareEvent(event: NewEvent): Promise<PreparedEvent> {
  const { body, nonce, payload, ...fields } = event;
  const now = event.receivedAt;
  const eventId = nextEventId(now);
  const stored = await encodePayload(body);
  const meta: StoredEventMeta = {
    ...fields,
    id: eventId,
    payloadBytes: body.length,
    payloadEncoding: stored.encoding,
    storedBytes: stored.bytes.length,
    chunkCount: 0,
  };
  const metaChars = JSON.stringify(meta).length;
  const inline = stored.bytes.length + 2 * metaChars <= INLINE_RECORD_BYTES;
  const chunks = inline ? [] : splitChunks(stored.bytes);
  if (inline) meta.inline = stored.bytes;
  else meta.chunkCount = chunks.length;
  return {
    eventId,
    receivedAt: now,
    meta,
    chunks,
    dedup: event.deliveryId === undefined
      ? null
      : await dedupMarkKey(event.scope, event.provider, event.deliveryId),
    nonceMark: nonce === undefined ? null : await nonceMarkKey(event.scope, nonce),
    metaChars,
    payload,
  };
}

/**
 * Tells this process's fan-out that a prepared event is committed, with its parsed body when
 * the ingress gave one (./recent_events.ts); without one there is nothing to keep.
 */
export function noteCommitted(kv: Kv, prepared: PreparedEvent): void {
  if (!prepared.payload) return;
  const { meta } = prepared;
  rememberAccepted(kv, {
    event: { ...eventFieldsOf(meta), payload: prepared.payload },
    payloadBytes: meta.payloadBytes,
  });
}

/**
 * Adds to `op` the accepting writes of a prepared event but its deliver job: the checks that its
 * dedup mark and nonce hold the given versionstamps (null: absent), the marks, the record, the
 * inline chunks and the pending fan-out mark. A group commit adds one job for all its events.
 */
export function addEventWrites(
  op: AtomicOperation,
  prepared: PreparedEvent,
  dedupStamp: string | null = null,
  nonceStamp: string | null = null,
): AtomicOperation {
  const { eventId, receivedAt: now, dedup, nonceMark, chunks } = prepared;
  if (dedup) {
    op.check({ key: dedup, versionstamp: dedupStamp })
      .set(dedup, { seenAt: now, eventId } satisfies SeenMark, { expireIn: DEDUP_WINDOW_MS });
  }
  if (nonceMark) {
    op.check({ key: nonceMark, versionstamp: nonceStamp })
      .set(nonceMark, { seenAt: now } satisfies SeenMark, { expireIn: NONCE_WINDOW_MS });
  }
  op.set(eventKey(eventId), prepared.meta, { expireIn: EVENT_RETENTION_MS });
  for (let i = 0; i < Math.min(INLINE_CHUNKS, chunks.length); i++) {
    op.set(eventChunkKey(eventId, i), chunks[i], { expireIn: EVENT_RETENTION_MS });
  }
  return markFanOutPending(op, eventId, now);
}

/**
 * Adds to `op` the accepting writes of one prepared event ({@link addEventWrites}) and its own
 * single-event deliver job.
 */
function addAcceptance(
  op: AtomicOperation,
  prepared: PreparedEvent,
  dedupStamp: string | null = null,
  nonceStamp: string | null = null,
): AtomicOperation {
  addEventWrites(op, prepared, dedupStamp, nonceStamp);
  return addDeliverJob(op, [prepared.eventId]);
}

/**
 * Accepts an event durably: its record, payload, dedup mark (when it has a
 * delivery id), nonce (when it has one) and its {@link DeliverJob} are
 * committed atomically. A delivery id already seen in the same scope and
 * provider within {@link DEDUP_WINDOW_MS} gives `duplicate`; otherwise a nonce
 * seen within {@link NONCE_WINDOW_MS} gives `nonce_reused`; of two concurrent
 * identical deliveries exactly one is accepted. Marks older than their window
 * count as absent even when KV has not yet expired them.
 */
export async function saveEvent(kv: Kv, event: NewEvent): Promise<SaveOutcome> {
  return await savePreparedEvent(kv, await prepareEvent(event));
}

/** Accepts a prepared event in a commit of its own, as {@link saveEvent} says. */
export async function savePreparedEvent(
  kv: Kv,
  prepared: PreparedEvent,
): Promise<SaveOutcome> {
  const { eventId, receivedAt: now, dedup, nonceMark, chunks } = prepared;
  await writeEarlyChunks(kv, eventId, chunks);
  let dedupStamp: string | null = null;
  let nonceStamp: string | null = null;
  for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
    const op = addAcceptance(kv.atomic(), prepared, dedupStamp, nonceStamp);
    if ((await op.commit()).ok) {
      noteCommitted(kv, prepared);
      return { status: "accepted", eventId };
    }

    const [dedupEntry, nonceEntry] = await Promise.all([
      dedup ? kv.get<SeenMark>(dedup) : null,
      nonceMark ? kv.get<SeenMark>(nonceMark) : null,
    ]);
    if (dedupEntry && isFresh(dedupEntry.value, now, DEDUP_WINDOW_MS)) {
      await deleteEarlyChunks(kv, eventId, chunks.length);
      return { status: "duplicate", eventId: dedupEntry.value?.eventId };
    }
    if (nonceEntry && isFresh(nonceEntry.value, now, NONCE_WINDOW_MS)) {
      await deleteEarlyChunks(kv, eventId, chunks.length);
      return { status: "nonce_reused" };
    }
    dedupStamp = dedupEntry?.versionstamp ?? null;
    nonceStamp = nonceEntry?.versionstamp ?? null;
  }
  await deleteEarlyChunks(kv, eventId, chunks.length);
  throw new Error(`Cannot store event ${eventId}: its dedup or nonce mark kept changing`);
}

/** The payload bytes of an event from its record or stored chunks, checked against its record. */
async function assemble(
  eventId: string,
  meta: StoredEventMeta,
  chunks: readonly Uint8Array[],
): Promise<Uint8Array<ArrayBuffer>> {
  if (meta.inline) return await decodeStored(eventId, meta, meta.inline);
  const stored = new Uint8Array(meta.storedBytes);
  let offset = 0;
  let count = 0;
  for (const chunk of chunks) {
    if (offset + chunk.length > stored.length) break;
    stored.set(chunk, offset);
    offset += chunk.length;
    count++;
  }
  if (count !== meta.chunkCount || offset !== stored.length) {
    throw new Error(`Event ${eventId} is incomplete: ${count} of ${meta.chunkCount} chunks`);
  }
  return await decodeStored(eventId, meta, stored);
}

async function decodeStored(
  eventId: string,
  meta: StoredEventMeta,
  stored: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  if (stored.length !== meta.storedBytes) {
    throw new Error(`Event ${eventId} stores ${stored.length} bytes, expected ${meta.storedBytes}`);
  }
  if (meta.payloadEncoding === "identity") return new Uint8Array(stored);
  const body = new Uint8Array((await loadZlib()).inflateRawSync(stored));
  if (body.length !== meta.payloadBytes) {
    throw new Error(
      `Event ${eventId} payload is ${body.length} bytes, expected ${meta.payloadBytes}`,
    );
  }
  return body;
}

async function readChunks(
  kv: Kv,
  eventId: string,
  meta: StoredEventMeta,
): Promise<Uint8Array<ArrayBuffer>> {
  if (meta.inline) return await assemble(eventId, meta, []);
  const chunks: Uint8Array[] = [];
  for await (const chunk of kv.list<Uint8Array>({ prefix: eventChunksPrefix(eventId) })) {
    chunks.push(chunk.value);
  }
  return await assemble(eventId, meta, chunks);
}

/** An event's own fields from its stored record: everything but how the payload is stored. */
function eventFieldsOf(meta: StoredEventMeta): Omit<ForgeEvent, "payload"> {
  const {
    payloadBytes: _p,
    payloadEncoding: _e,
    storedBytes: _s,
    chunkCount: _c,
    inline: _i,
    ...event
  } = meta;
  return event;
}

function eventOf(meta: StoredEventMeta, body: Uint8Array): ForgeEvent {
  return { ...eventFieldsOf(meta), payload: JSON.parse(fromUtf8(body)) };
}

/** The raw payload bytes of a stored event, or null when the event is unknown. */
export async function loadEventBody(
  kv: Kv,
  eventId: string,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const meta = await kv.get<StoredEventMeta>(eventKey(eventId));
  return meta.value ? await readChunks(kv, eventId, meta.value) : null;
}

/**
 * A stored event with its payload reassembled and parsed, or null when unknown (taken from
 * the events this process has just accepted when it is one of them: ./recent_events.ts).
 */
export async function loadEvent(kv: Kv, eventId: string): Promise<ForgeEvent | null> {
  const recent = takeRecentEvent(kv, eventId);
  if (recent) return recent.event;
  const meta = await kv.get<StoredEventMeta>(eventKey(eventId));
  if (!meta.value) return null;
  return eventOf(meta.value, await readChunks(kv, eventId, meta.value));
}

/**
 * One event of {@link loadEvents}: the event with its payload's size as received, null when
 * unknown, or why it could not be read.
 */
type LoadedEvent =
  | { event: ForgeEvent; payloadBytes: number }
  | { event: null }
  | { error: unknown };

/** Most keys one `getMany` reads. */
const GET_MANY_KEYS = 10;

async function getAll<T>(kv: Kv, keys: readonly KvKey[]) {
  const reads: Promise<KvEntryMaybe<T>[]>[] = [];
  for (let start = 0; start < keys.length; start += GET_MANY_KEYS) {
    reads.push(kv.getMany<T[]>(keys.slice(start, start + GET_MANY_KEYS)));
  }
  return (await Promise.all(reads)).flat();
}

/**
 * Several stored events, as {@link loadEvent} gives each: those this process has just accepted
 * from ./recent_events.ts, the others read together (the records as one range when their ids
 * sort close, chunks ten keys per read). An event that cannot be read (incomplete, unparsable)
 * is reported alone and does not keep the others from loading.
 */
export async function loadEvents(
  kv: Kv,
  eventIds: readonly string[],
): Promise<Map<string, LoadedEvent>> {
  const loaded = new Map<string, LoadedEvent>(eventIds.map((id) => [id, { event: null }]));
  const toRead: string[] = [];
  for (const eventId of eventIds) {
    const recent = takeRecentEvent(kv, eventId);
    if (recent) loaded.set(eventId, recent);
    else toRead.push(eventId);
  }
  if (toRead.length === 0) return loaded;
  const metas = await readIds<StoredEventMeta>(kv, eventsPrefix(), toRead);
  const known = metas.flatMap((entry, index) =>
    entry.value === null ? [] : [{ eventId: toRead[index], meta: entry.value }]
  );
  const chunkKeys = known.flatMap(({ eventId, meta }) =>
    Array.from({ length: meta.chunkCount }, (_, index) => eventChunkKey(eventId, index))
  );
  const chunks = await getAll<Uint8Array>(kv, chunkKeys);
  let offset = 0;
  for (const { eventId, meta } of known) {
    const own = chunks.slice(offset, offset + meta.chunkCount);
    offset += meta.chunkCount;
    try {
      const present = own.flatMap((entry) => entry.value === null ? [] : [entry.value]);
      const event = eventOf(meta, await assemble(eventId, meta, present));
      loaded.set(eventId, { event, payloadBytes: meta.payloadBytes });
    } catch (error) {
      loaded.set(eventId, { error });
    }
  }
  return loaded;
}
