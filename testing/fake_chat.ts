/**
 * Local fake Discord and Telegram APIs, shared by the delivery tests and the delivery benchmark
 * (hence `testing/`, which both may import). Each records what it receives, can be scripted to
 * answer specific statuses, can hold an answer until told to go on, and enforces rate limits the
 * way the real platform advertises them (Discord: per-channel buckets with `X-RateLimit-*`
 * headers and a global limit; Telegram: per-chat, per-group and overall limits).
 */

/** A scripted answer: HTTP status and JSON body, or `raw` JSON text, and extra headers. */
export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  /** Sent as it is instead of `body` (for numbers JSON.stringify cannot write, like 1e999). */
  raw?: string;
  headers?: Record<string, string>;
}

/** One message a fake accepted. */
export interface ReceivedMessage {
  /** Discord channel (or thread) id, or Telegram chat id. */
  chat: string;
  body: Record<string, unknown>;
  messageId: string;
  at: number;
}

/** Discord bucket limits the fake enforces. */
export interface FakeDiscordLimits {
  /** Requests per channel per window. */
  bucketLimit: number;
  bucketWindowMs: number;
  /** Requests per `globalWindowMs`, all channels together. */
  globalMax: number;
  globalWindowMs: number;
}

/** Telegram limits the fake enforces (the real ones are soft; `toleranceMs` models that). */
export interface FakeTelegramLimits {
  chatIntervalMs: number;
  groupMax: number;
  groupWindowMs: number;
  globalMax: number;
  globalWindowMs: number;
  toleranceMs: number;
}

/** A running fake platform. */
export interface FakeChat extends AsyncDisposable {
  /** The base URL to put in DISCORD_API_URL / TELEGRAM_API_URL. */
  url: string;
  /** Accepted messages, in arrival order. */
  received: ReceivedMessage[];
  /** Accepted edits, in arrival order (`messageId` is the message edited). */
  edits: ReceivedMessage[];
  /** Forgets a message, as if someone deleted it: editing it then answers "not found". */
  deleteMessage(messageId: string): void;
  /** Requests received (accepted, refused and rate-limited). */
  requests(): number;
  /** 429 answers given (scripted ones included). */
  rateLimited(): number;
  /** The next requests to `chat` get these answers, in order, before any limit applies. */
  script(chat: string, answers: ScriptedAnswer[]): void;
  /**
   * After `skip` more accepted requests for `chat`, the next one is recorded, then its answer
   * waits until the returned function is called; `arrived` resolves when that request has come in.
   */
  holdNext(chat: string, skip?: number): { arrived: Promise<void>; release: () => void };
  close(): Promise<void>;
}

interface Hold {
  /** Accepted requests still to let through before this one is held. */
  skip: number;
  arrived: PromiseWithResolvers<void>;
  gate: PromiseWithResolvers<void>;
}

interface Base {
  received: ReceivedMessage[];
  edits: ReceivedMessage[];
  deleted: Set<string>;
  scripts: Map<string, ScriptedAnswer[]>;
  holds: Map<string, Hold>;
  counters: { requests: number; rateLimited: number };
}

function json(status: number, body: unknown, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function scriptedResponse(answer: ScriptedAnswer): Response {
  if (answer.raw === undefined) return json(answer.status, answer.body, answer.headers);
  return new Response(answer.raw, {
    status: answer.status,
    headers: { "content-type": "application/json", ...answer.headers },
  });
}

function serve(base: Base, handler: (req: Request) => Promise<Response>): FakeChat {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (req) => {
      base.counters.requests++;
      const res = await handler(req);
      if (res.status === 429) base.counters.rateLimited++;
      return res;
    },
  );
  const close = async () => {
    for (const hold of base.holds.values()) hold.gate.resolve();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    received: base.received,
    edits: base.edits,
    deleteMessage: (messageId) => base.deleted.add(messageId),
    requests: () => base.counters.requests,
    rateLimited: () => base.counters.rateLimited,
    script: (chat, answers) =>
      base.scripts.set(chat, [...(base.scripts.get(chat) ?? []), ...answers]),
    holdNext(chat, skip = 0) {
      const hold = {
        skip,
        arrived: Promise.withResolvers<void>(),
        gate: Promise.withResolvers<void>(),
      };
      base.holds.set(chat, hold);
      return { arrived: hold.arrived.promise, release: () => hold.gate.resolve() };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function newBase(): Base {
  return {
    received: [],
    edits: [],
    deleted: new Set(),
    scripts: new Map(),
    holds: new Map(),
    counters: { requests: 0, rateLimited: 0 },
  };
}

function scripted(base: Base, chat: string): ScriptedAnswer | undefined {
  const queue = base.scripts.get(chat);
  return queue?.shift();
}

async function holdIfAsked(base: Base, chat: string) {
  const hold = base.holds.get(chat);
  if (!hold) return;
  if (hold.skip > 0) {
    hold.skip--;
    return;
  }
  base.holds.delete(chat);
  hold.arrived.resolve();
  await hold.gate.promise;
}

/** True when `messageId` was accepted in `chat` and not deleted since. */
function editable(base: Base, chat: string, messageId: string): boolean {
  return !base.deleted.has(messageId) &&
    base.received.some((message) => message.chat === chat && message.messageId === messageId);
}

/** Counts events in a sliding window. */
class Window {
  #times: number[] = [];
  constructor(readonly max: number, readonly windowMs: number) {}
  /** True (and counted) when one more event at `now` stays within the limit. */
  admit(now: number): boolean {
    this.#times = this.#times.filter((time) => time > now - this.windowMs);
    if (this.#times.length >= this.max) return false;
    this.#times.push(now);
    return true;
  }
  /** Seconds until the window admits again. */
  retryAfter(now: number): number {
    return Math.max(0, (this.#times[0] + this.windowMs - now) / 1000);
  }
}

/** Discord's real limits: 5 messages per 5 s per channel, 50 requests per second. */
export const DISCORD_REAL_LIMITS: FakeDiscordLimits = {
  bucketLimit: 5,
  bucketWindowMs: 5000,
  globalMax: 50,
  globalWindowMs: 1000,
};

/** A fake Discord that also knows threads (`GET /channels/{id}`). */
export interface FakeDiscord extends FakeChat {
  /** Makes `threadId` a public thread of channel `parentId`. */
  addThread(threadId: string, parentId: string): void;
  /** Threads started from messages (`POST /channels/{c}/messages/{m}/threads`), in order. */
  threadsStarted: { channel: string; messageId: string; name: string }[];
  /** Users a DM channel was opened with (`POST /users/@me/channels`), in order. */
  dmsOpened: string[];
}

/** The DM channel a fake Discord opens with a user: `9` and the user's id. */
export function fakeDmChannelOf(userId: string): string {
  return `9${userId}`;
}

/**
 * Thread starts on a fake Discord (`POST /channels/{c}/messages/{m}/threads`): recorded and
 * answered without limits. A thread gets the id of the message it starts from, as on Discord;
 * answers scripted for the chat `thread:{m}` come first. Null for any other request.
 */
async function discordThreadCall(
  base: Base,
  threads: Map<string, string>,
  started: FakeDiscord["threadsStarted"],
  req: Request,
  path: string,
): Promise<Response | null> {
  const match = path.match(/^\/channels\/([^/]+)\/messages\/([^/]+)\/threads$/);
  if (!match || req.method !== "POST") return null;
  const [channel, messageId] = [decodeURIComponent(match[1]), decodeURIComponent(match[2])];
  const body = await req.json() as Record<string, unknown>;
  const answer = scripted(base, `thread:${messageId}`);
  if (answer) return scriptedResponse(answer);
  if (threads.has(messageId)) {
    return json(400, { message: "Thread already exists", code: 160004 });
  }
  threads.set(messageId, channel);
  started.push({ channel, messageId, name: String(body.name) });
  return json(201, { id: messageId, parent_id: channel, type: 11, name: body.name });
}

/** The answer to `GET /channels/{id}`: a known thread, or Unknown Channel. */
function channelAnswer(threads: ReadonlyMap<string, string>, channel: string): Response {
  const parentId = threads.get(channel);
  return parentId === undefined
    ? json(404, { message: "Unknown Channel", code: 10003 })
    : json(200, { id: channel, type: 11, parent_id: parentId });
}

/**
 * Starts a fake Discord API: `POST /channels/{id}/messages` (nonces enforced),
 * `PATCH /channels/{id}/messages/{message}` (404 Unknown Message for a message it does not
 * have), `POST /channels/{c}/messages/{m}/threads`, `GET /channels/{id}` for the threads
 * added with `addThread` or started, and `POST /users/@me/channels` (a DM channel).
 */
export function startFakeDiscord(limits?: FakeDiscordLimits): FakeDiscord {
  const base = newBase();
  const threads = new Map<string, string>();
  const threadsStarted: FakeDiscord["threadsStarted"] = [];
  const buckets = new Map<string, { start: number; count: number }>();
  const global = limits ? new Window(limits.globalMax, limits.globalWindowMs) : null;
  const byNonce = new Map<string, ReceivedMessage>();
  let nextId = 1_000_000_000_000_000_000n;

  function bucketHeaders(bucket: { start: number; count: number }, now: number) {
    const resetAt = bucket.start + limits!.bucketWindowMs;
    return {
      "x-ratelimit-limit": String(limits!.bucketLimit),
      "x-ratelimit-remaining": String(Math.max(0, limits!.bucketLimit - bucket.count)),
      "x-ratelimit-reset": String(resetAt / 1000),
      "x-ratelimit-reset-after": ((resetAt - now) / 1000).toFixed(3),
      "x-ratelimit-bucket": "fake-create-message",
    };
  }

  const dmsOpened: string[] = [];
  const fake = serve(base, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/users/@me/channels") {
      const recipient = String((await req.json() as { recipient_id?: unknown }).recipient_id);
      dmsOpened.push(recipient);
      return json(200, { id: fakeDmChannelOf(recipient), type: 1 });
    }
    const lookup = path.match(/^\/channels\/([^/]+)$/);
    if (req.method === "GET" && lookup) {
      return channelAnswer(threads, decodeURIComponent(lookup[1]));
    }
    const threadCall = await discordThreadCall(base, threads, threadsStarted, req, path);
    if (threadCall) return threadCall;
    const match = path.match(/^\/channels\/([^/]+)\/messages(?:\/([^/]+))?$/);
    const editing = req.method === "PATCH" && match?.[2] !== undefined;
    const posting = req.method === "POST" && match !== null && match[2] === undefined;
    if (!match || !(editing || posting)) {
      return json(404, { message: "404: Not Found", code: 0 });
    }
    const channel = decodeURIComponent(match[1]);
    const body = await req.json() as Record<string, unknown>;
    const answer = scripted(base, channel);
    if (answer) return scriptedResponse(answer);
    const now = Date.now();
    let headers: Record<string, string> = {};
    if (limits) {
      let bucket = buckets.get(channel);
      if (!bucket || now >= bucket.start + limits.bucketWindowMs) {
        bucket = { start: now, count: 0 };
        buckets.set(channel, bucket);
      }
      if (bucket.count >= limits.bucketLimit) {
        const retryAfter = (bucket.start + limits.bucketWindowMs - now) / 1000;
        return json(429, {
          message: "You are being rate limited.",
          retry_after: retryAfter,
          global: false,
        }, { ...bucketHeaders(bucket, now), "x-ratelimit-scope": "user" });
      }
      if (!global!.admit(now)) {
        return json(
          429,
          {
            message: "You are being rate limited.",
            retry_after: global!.retryAfter(now),
            global: true,
          },
          { "x-ratelimit-global": "true", "x-ratelimit-scope": "global" },
        );
      }
      bucket.count++;
      headers = bucketHeaders(bucket, now);
    }
    if (editing) {
      const messageId = decodeURIComponent(match[2]);
      if (!editable(base, channel, messageId)) {
        return json(404, { message: "Unknown Message", code: 10008 }, headers);
      }
      base.edits.push({ chat: channel, body, messageId, at: now });
      return json(200, { id: messageId, channel_id: channel }, headers);
    }
    const nonce = typeof body.nonce === "string" ? body.nonce : undefined;
    const earlier = nonce && body.enforce_nonce === true ? byNonce.get(nonce) : undefined;
    if (earlier) {
      return json(200, { id: earlier.messageId, channel_id: channel, nonce }, headers);
    }
    const message: ReceivedMessage = { chat: channel, body, messageId: String(nextId++), at: now };
    base.received.push(message);
    if (nonce) byNonce.set(nonce, message);
    await holdIfAsked(base, channel);
    return json(200, { id: message.messageId, channel_id: channel, nonce }, headers);
  });
  return {
    ...fake,
    addThread: (threadId, parentId) => threads.set(threadId, parentId),
    threadsStarted,
    dmsOpened,
  };
}

/** Telegram's published limits, enforced strictly. */
export const TELEGRAM_REAL_LIMITS: FakeTelegramLimits = {
  chatIntervalMs: 1000,
  groupMax: 20,
  groupWindowMs: 60_000,
  globalMax: 30,
  globalWindowMs: 1000,
  toleranceMs: 0,
};

function tooManyRequests(retryAfterSeconds: number): Response {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return json(429, {
    ok: false,
    error_code: 429,
    description: `Too Many Requests: retry after ${seconds}`,
    parameters: { retry_after: retryAfterSeconds },
  });
}

/** How a fake Telegram tells the time of a message. */
export interface FakeTelegramOptions {
  /**
   * The time a message to `chat` counts at for the limits. By default its arrival; a test may
   * answer the time the sender's pacer scheduled it for, so that scheduling delays between the
   * pacer and the fake (a busy machine) do not decide whether the pacer kept the limits.
   * Undefined falls back to the arrival.
   */
  sentAt?: (chat: string) => number | undefined;
}

/**
 * Starts a fake Telegram Bot API: `POST /bot{token}/sendMessage` and `editMessageText` (400
 * "message to edit not found" for a message it does not have).
 */
export function startFakeTelegram(
  limits?: FakeTelegramLimits,
  options: FakeTelegramOptions = {},
): FakeChat {
  const base = newBase();
  const lastAt = new Map<string, number>();
  const groups = new Map<string, Window>();
  const global = limits
    ? new Window(limits.globalMax, limits.globalWindowMs - limits.toleranceMs)
    : null;
  let nextId = 1;

  function limited(chat: string, now: number): Response | null {
    if (!limits) return null;
    const previous = lastAt.get(chat);
    const gap = previous === undefined ? Infinity : now - previous;
    if (gap < limits.chatIntervalMs - limits.toleranceMs) {
      return tooManyRequests((limits.chatIntervalMs - gap) / 1000);
    }
    if (chat.startsWith("-") || chat.startsWith("@")) {
      let window = groups.get(chat);
      if (!window) {
        window = new Window(limits.groupMax, limits.groupWindowMs - limits.toleranceMs);
        groups.set(chat, window);
      }
      if (!window.admit(now)) return tooManyRequests(window.retryAfter(now));
    }
    if (!global!.admit(now)) return tooManyRequests(global!.retryAfter(now));
    lastAt.set(chat, now);
    return null;
  }

  return serve(base, async (req) => {
    const match = new URL(req.url).pathname.match(/^\/bot([^/]+)\/(sendMessage|editMessageText)$/);
    if (req.method !== "POST" || !match) {
      return json(404, { ok: false, error_code: 404, description: "Not Found" });
    }
    const body = await req.json() as Record<string, unknown>;
    const chat = String(body.chat_id);
    const answer = scripted(base, chat);
    if (answer) return scriptedResponse(answer);
    const now = Date.now();
    const refusal = limited(chat, options.sentAt?.(chat) ?? now);
    if (refusal) return refusal;
    if (match[2] === "editMessageText") {
      const messageId = String(body.message_id);
      if (!editable(base, chat, messageId)) {
        return json(400, {
          ok: false,
          error_code: 400,
          description: "Bad Request: message to edit not found",
        });
      }
      base.edits.push({ chat, body, messageId, at: now });
      return json(200, {
        ok: true,
        result: { message_id: Number(messageId), chat: { id: chat }, text: body.text },
      });
    }
    const message: ReceivedMessage = { chat, body, messageId: String(nextId++), at: now };
    base.received.push(message);
    await holdIfAsked(base, chat);
    return json(200, {
      ok: true,
      result: { message_id: Number(message.messageId), chat: { id: chat }, text: body.text },
    });
  });
}
