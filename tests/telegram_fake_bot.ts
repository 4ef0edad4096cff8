/**
 * A local fake of the Bot API methods chat-ops calls (`sendMessage`, `answerCallbackQuery`,
 * `editMessageReplyMarkup`, `getChatMember`, `getMe`, and the setup's `setWebhook` and
 * `setMyCommands`): it records every call, answers like
 * Telegram (`{ ok, result }` or `{ ok: false, error_code, description }`), refuses private
 * messages to users who never started the bot, and can be scripted per method.
 */
import type { ChatMember } from "@grammyjs/types";

/** One Bot API call the fake received. */
export interface BotCall {
  method: string;
  body: Record<string, unknown>;
}

/** The running fake. */
export interface FakeBot extends AsyncDisposable {
  /** The base URL for TELEGRAM_API_URL. */
  url: string;
  /** The bot's user name (what `getMe` answers). */
  username: string;
  calls: BotCall[];
  /** Users (by id) who have not started a private chat with the bot: messages to them get 403. */
  notStarted: Set<number>;
  /** Chat member statuses by `chatId:userId` (default `member`). */
  statuses: Map<string, ChatMember["status"]>;
  /**
   * The next calls of `method` get these answers (status, description and, for a 429, the
   * seconds to wait), in order.
   */
  script(method: string, ...answers: ScriptedRefusal[]): void;
  /** The calls of one method, in order. */
  callsOf(method: string): Record<string, unknown>[];
  /** The next call of `method` is recorded, then waits for `release` before it is answered. */
  hold(method: string): { arrived: Promise<void>; release: () => void };
}

/** A refusal the fake answers instead of its usual answer. */
interface ScriptedRefusal {
  status: number;
  description: string;
  /** The `parameters.retry_after` of a 429, in seconds. */
  retryAfter?: number;
}

function answer(result: unknown): Response {
  return Response.json({ ok: true, result });
}

function refusal(status: number, description: string, retryAfter?: number): Response {
  const parameters = retryAfter === undefined ? {} : { parameters: { retry_after: retryAfter } };
  return Response.json({ ok: false, error_code: status, description, ...parameters }, { status });
}

/** Starts the fake on a free loopback port. */
export function startFakeBot(username = "switchyard_bot"): FakeBot {
  const scripts = new Map<string, ScriptedRefusal[]>();
  const holds = new Map<string, { arrived: PromiseWithResolvers<void>; gate: Promise<void> }>();
  let nextMessageId = 5000;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const match = new URL(req.url).pathname.match(/^\/bot[^/]+\/(\w+)$/);
    if (req.method !== "POST" || !match) return refusal(404, "Not Found");
    const method = match[1];
    const body = await req.json() as Record<string, unknown>;
    fake.calls.push({ method, body });
    const hold = holds.get(method);
    if (hold) {
      holds.delete(method);
      hold.arrived.resolve();
      await hold.gate;
    }
    const scripted = scripts.get(method)?.shift();
    if (scripted) return refusal(scripted.status, scripted.description, scripted.retryAfter);
    switch (method) {
      case "getMe":
        return answer({ id: 42, is_bot: true, first_name: "Switchyard", username });
      case "sendMessage": {
        const chat = Number(body.chat_id);
        if (chat > 0 && fake.notStarted.has(chat)) {
          return refusal(403, "Forbidden: bot can't initiate conversation with a user");
        }
        return answer({
          message_id: ++nextMessageId,
          date: 1,
          chat: { id: chat, type: chat > 0 ? "private" : "supergroup" },
          text: body.text,
        });
      }
      case "answerCallbackQuery":
      case "setWebhook":
      case "setMyCommands":
        return answer(true);
      case "editMessageReplyMarkup":
        return answer({ message_id: body.message_id, date: 1, chat: { id: body.chat_id } });
      case "getChatMember": {
        const status = fake.statuses.get(`${body.chat_id}:${body.user_id}`) ?? "member";
        return answer({ status, user: { id: body.user_id, is_bot: false, first_name: "U" } });
      }
      default:
        return refusal(404, "Not Found: method not found");
    }
  });
  const fake: FakeBot = {
    url: `http://127.0.0.1:${server.addr.port}`,
    username,
    calls: [],
    notStarted: new Set(),
    statuses: new Map(),
    script: (method, ...answers) =>
      scripts.set(method, [...(scripts.get(method) ?? []), ...answers]),
    callsOf: (method) => fake.calls.filter((call) => call.method === method).map((c) => c.body),
    hold(method) {
      const arrived = Promise.withResolvers<void>();
      const gate = Promise.withResolvers<void>();
      holds.set(method, { arrived, gate: gate.promise });
      return { arrived: arrived.promise, release: () => gate.resolve() };
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
  return fake;
}
