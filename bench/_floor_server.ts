/**
 * The least work a durable webhook ingest can do, as a server for `ingest_floor.ts` (not a
 * benchmark itself): `deno run -A bench/_floor_server.ts` with `PORT`, `SECRET` and either
 * `KV_PATH` or `DATABASE_URL`. Each `POST` is read whole, its `X-Hub-Signature-256` checked over
 * the raw bytes with a key imported once, its body parsed as JSON and deflated at level 1; the
 * events that arrive while a commit runs are committed together in one write that also refuses a
 * delivery id seen before (KV: a `check` and an expiring mark; PostgreSQL: the id as primary key),
 * and each request is answered once its write is durable. Nothing else: no routing, no jobs, no
 * worker, no logs. `GET` answers 200 once it is ready.
 */
import postgres from "postgres";
import { deflateRawSync } from "node:zlib";

/** Events committed together at most, as the app's group commit. */
const BATCH = 32;
const DEDUP_WINDOW_MS = 5 * 60 * 1000;

interface Waiting {
  deliveryId: string;
  stored: Uint8Array;
  answer: (fresh: boolean) => void;
}

/** Commits a batch; the delivery ids it stored (the others were seen before). */
type CommitBatch = (batch: Waiting[]) => Promise<Set<string>>;

/** Adds an event and its expiring "seen" mark, refused when the mark exists. */
function addEvent(op: Deno.AtomicOperation, event: Waiting): Deno.AtomicOperation {
  const seen = ["floor_seen", event.deliveryId];
  return op.check({ key: seen, versionstamp: null })
    .set(seen, 1, { expireIn: DEDUP_WINDOW_MS })
    .set(["floor_events", event.deliveryId], event.stored);
}

async function kvCommitter(path: string): Promise<CommitBatch> {
  const kv = await Deno.openKv(path);
  return async (batch) => {
    const op = kv.atomic();
    for (const event of batch) addEvent(op, event);
    if ((await op.commit()).ok) return new Set(batch.map((event) => event.deliveryId));
    // A delivery id seen before fails the whole batch: each event is committed alone.
    const stored = new Set<string>();
    for (const event of batch) {
      if ((await addEvent(kv.atomic(), event).commit()).ok) stored.add(event.deliveryId);
    }
    return stored;
  };
}

async function postgresCommitter(url: string): Promise<CommitBatch> {
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  await sql`CREATE TABLE IF NOT EXISTS floor_events (
    delivery_id text PRIMARY KEY, stored bytea NOT NULL)`;
  return async (batch) => {
    const values = batch.flatMap((event) => [event.deliveryId, event.stored]);
    const rows = batch.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(", ");
    const stored = await sql.unsafe(
      `INSERT INTO floor_events (delivery_id, stored) VALUES ${rows}
       ON CONFLICT DO NOTHING RETURNING delivery_id`,
      values as never[],
    );
    return new Set(stored.map((row) => String(row.delivery_id)));
  };
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const kvPath = Deno.env.get("KV_PATH");
const commit = kvPath
  ? await kvCommitter(kvPath)
  : await postgresCommitter(Deno.env.get("DATABASE_URL")!);
const key = await crypto.subtle.importKey(
  "raw",
  new TextEncoder().encode(Deno.env.get("SECRET")!),
  { name: "HMAC", hash: "SHA-256" },
  false,
  ["verify"],
);
let waiting: Waiting[] = [];
let committing = false;

async function drain(): Promise<void> {
  if (committing || waiting.length === 0) return;
  committing = true;
  const batch = waiting.slice(0, BATCH);
  waiting = waiting.slice(BATCH);
  try {
    const stored = await commit(batch);
    for (const event of batch) event.answer(stored.has(event.deliveryId));
  } catch (error) {
    console.error(error);
    for (const event of batch) event.answer(false);
  }
  committing = false;
  drain();
}

Deno.serve({ port: Number(Deno.env.get("PORT")), hostname: "127.0.0.1", onListen() {} }, async (
  request,
) => {
  if (request.method === "GET") return new Response("ready");
  const body = new Uint8Array(await request.arrayBuffer());
  const signature = hexBytes(request.headers.get("x-hub-signature-256")?.slice(7) ?? "");
  if (!signature || !(await crypto.subtle.verify("HMAC", key, signature, body))) {
    return Response.json({ error: "bad signature" }, { status: 401 });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(body));
  } catch {
    payload = null;
  }
  const deliveryId = request.headers.get("x-github-delivery");
  if (typeof payload !== "object" || payload === null || !deliveryId) {
    return Response.json({ error: "not an event" }, { status: 400 });
  }
  const stored = new Uint8Array(deflateRawSync(body, { level: 1 }));
  const fresh = await new Promise<boolean>((answer) => {
    waiting.push({ deliveryId, stored, answer });
    queueMicrotask(drain);
  });
  return Response.json(fresh ? { ok: true } : { ok: true, duplicate: true });
});
