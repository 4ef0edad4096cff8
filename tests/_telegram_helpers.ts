/**
 * Shared pieces of the Telegram chat-ops tests: the app against a fake Bot API and a fake
 * GitHub, updates built with the Bot API's own types, and posting them to the webhook.
 */
import { completeLinkAsClient } from "./_chat_link_helpers.ts";
import type { CallbackQuery, Message, Update } from "@grammyjs/types";
import { updatesHandled } from "../lib/chatops/telegram/webhook.ts";
import type { Limiters } from "../lib/delivery/adapters.ts";
import { subjectTag } from "../lib/format/subject.ts";
import type { Reservation } from "../lib/platform/even_pace.ts";
import { getGroup, putGroup } from "../lib/store/config/groups.ts";
import { type MessageSubject, saveMessageRef } from "../lib/store/delivery/message_refs.ts";
import { FAST_TELEGRAM } from "./_delivery_helpers.ts";
import { startTestApp, type TestApp } from "./_helpers.ts";
import { type FakeGitHub, type FakeUser, githubEnv, startFakeGitHub } from "./fake_github.ts";
import { TelegramPacer } from "../lib/telegram/pacer.ts";
import { type FakeBot, startFakeBot } from "./telegram_fake_bot.ts";

/** The webhook secret the tests configure. */
export const SECRET = "test_secret-123";

/** A group chat id (supergroups have negative ids). */
export const GROUP = -1001234;

/** A person's Telegram user id (also their private chat's id). */
export const ALICE = 777;

/** The app with its fakes; dispose with `await using`. */
export interface TelegramWorld extends AsyncDisposable {
  t: TestApp;
  bot: FakeBot;
  github: FakeGitHub;
}

/**
 * Starts the app with the Telegram bot and GitHub sign-in pointed at fakes. Its adapters hold
 * the rate limiters in `limiters`; by default a Telegram pacer with limits scaled down (every
 * reply and press goes through it, and tests that are not about pacing send commands quickly),
 * the pacing tests pass one with Telegram's own limits.
 */
export async function startTelegramWorld(
  extra: Record<string, string> = {},
  limiters: Limiters = { telegram: new TelegramPacer({ limits: FAST_TELEGRAM }) },
): Promise<TelegramWorld> {
  const bot = startFakeBot();
  const github = startFakeGitHub();
  const t = await startTestApp(
    {
      ...githubEnv(github),
      TELEGRAM_BOT_TOKEN: "123456:test-token",
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_URL: bot.url,
      BASE_URL: "https://relay.example",
      ...extra,
    },
    undefined,
    limiters,
  );
  return {
    t,
    bot,
    github,
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await bot[Symbol.asyncDispose]();
      await github[Symbol.asyncDispose]();
    },
  };
}

let nextUpdateId = 1;
let nextMessageId = 100;

/** A text message from `userId` in `chatId` (a group unless the ids are equal). */
export function textMessage(
  text: string,
  options: { chatId?: number; userId?: number; replyTo?: number; threadId?: number } = {},
): Message {
  const chatId = options.chatId ?? GROUP;
  const userId = options.userId ?? ALICE;
  const message = {
    message_id: ++nextMessageId,
    date: 1_700_000_000,
    chat: chatId === userId
      ? { id: chatId, type: "private", first_name: "Alice" }
      : { id: chatId, type: "supergroup", title: "Team" },
    from: { id: userId, is_bot: false, first_name: "Alice", username: "alice" },
    text,
    ...(options.threadId === undefined
      ? {}
      : { message_thread_id: options.threadId, is_topic_message: true }),
    ...(options.replyTo === undefined ? {} : {
      reply_to_message: {
        message_id: options.replyTo,
        date: 1_700_000_000,
        chat: { id: chatId, type: "supergroup", title: "Team" },
        text: "notification",
      },
    }),
  };
  return message as Message;
}

/** An update carrying a message. */
export function messageUpdate(message: Message): Update {
  return { update_id: ++nextUpdateId, message } as Update;
}

/** An update carrying a button press on the bot's message `messageId` in `chatId`. */
export function buttonUpdate(
  data: string,
  options: { messageId: number; chatId?: number; userId?: number; markup?: unknown },
): Update {
  const chatId = options.chatId ?? GROUP;
  const query = {
    id: `q${++nextUpdateId}`,
    from: { id: options.userId ?? ALICE, is_bot: false, first_name: "Alice" },
    chat_instance: "ci",
    data,
    message: {
      message_id: options.messageId,
      date: 1_700_000_000,
      chat: { id: chatId, type: "supergroup", title: "Team" },
      text: "notification",
      ...(options.markup === undefined ? {} : { reply_markup: options.markup }),
    },
  } as CallbackQuery;
  return { update_id: nextUpdateId, callback_query: query } as Update;
}

/**
 * Posts an update (or any body) to the webhook with the right secret, unless told otherwise,
 * and waits until the work it started is done (it may outlast the answer on a busy machine).
 */
export async function postUpdate(
  t: TestApp,
  body: unknown,
  secret: string | null = SECRET,
): Promise<Response> {
  const res = await t.fetch("/telegram/webhook", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(secret === null ? {} : { "x-telegram-bot-api-secret-token": secret }),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  await updatesHandled(t.config);
  return res;
}

/** Posts an update and checks it was accepted. */
export async function sendUpdate(t: TestApp, update: Update): Promise<void> {
  const res = await postUpdate(t, update);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`update refused: ${res.status} ${JSON.stringify(body)}`);
}

/** The texts the fake bot sent to `chatId`. */
export function textsTo(bot: FakeBot, chatId: number): string[] {
  return bot.callsOf("sendMessage")
    .filter((call) => String(call.chat_id) === String(chatId))
    .map((call) => String(call.text));
}

/** Alice's GitHub account. */
export const ALICE_GITHUB: FakeUser = { id: 9001, login: "alice-gh" };

/**
 * Links Telegram user `userId` to `user` the way a person does: `/gh login` in the private
 * chat, then the link page in a browser, GitHub, and the callback with that browser's cookie.
 */
export async function linkUser(
  world: TelegramWorld,
  userId = ALICE,
  user: FakeUser = ALICE_GITHUB,
): Promise<void> {
  await sendUpdate(world.t, messageUpdate(textMessage("/gh login", { chatId: userId, userId })));
  const text = textsTo(world.bot, userId).at(-1) ?? "";
  const pageUrl = text.match(/https?:\/\/\S+/)![0];
  const res = await completeLinkAsClient(world.t, pageUrl, world.github.issueCode(user));
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`link failed: ${res.status}`);
}

let nextNotificationId = 9000;

/** The button data `data` tagged with the item `repository#number` (as a card's buttons are). */
export function tagged(data: string, repository = "octo/site", number = 12): string {
  return `${data}#${subjectTag(repository, number)}`;
}

/**
 * Records a notification in `chatId` about `subject` (as delivery does); its message id. Its
 * group is created, bound to the `octo` account through `owners`, when it does not exist.
 */
export async function notification(
  t: TestApp,
  subject: Partial<MessageSubject> = {},
  chatId: number | string = GROUP,
): Promise<number> {
  const groupId = subject.groupId ?? "team";
  if (!(await getGroup(t.kv, groupId))) {
    await putGroup(t.kv, { id: groupId, name: groupId, members: [], owners: ["octo"] });
  }
  const messageId = ++nextNotificationId;
  await saveMessageRef(t.kv, {
    platform: "telegram",
    chatId: String(chatId),
    messageId: String(messageId),
  }, {
    repository: "octo/site",
    kind: "pull",
    number: 12,
    routeId: "prs",
    groupId: "team",
    ...subject,
  });
  return messageId;
}

/**
 * A pacer that records the class of every granted reservation (`message` for delivery's, and
 * `reply`, `press`, `read` for chat-ops calls) and the kind of every observed answer.
 */
export class CountingPacer extends TelegramPacer {
  reserved: string[] = [];
  observed: string[] = [];

  #count(kind: string, reservation: Reservation): Reservation {
    if (reservation.granted) this.reserved.push(kind);
    return reservation;
  }

  override reserve(chatId: string, maxWaitMs: number): Reservation {
    return this.#count("message", super.reserve(chatId, maxWaitMs));
  }

  override reserveReply(chatId: string, maxWaitMs: number): Reservation {
    return this.#count("reply", super.reserveReply(chatId, maxWaitMs));
  }

  override reservePress(chatId: string, maxWaitMs: number): Reservation {
    return this.#count("press", super.reservePress(chatId, maxWaitMs));
  }

  override reserveAnswer(maxWaitMs: number): Reservation {
    return this.#count("answer", super.reserveAnswer(maxWaitMs));
  }

  override reserveRead(maxWaitMs: number): Reservation {
    return this.#count("read", super.reserveRead(maxWaitMs));
  }

  override observe(chatId: string, answer: { kind: string; retryAfterMs?: number }): void {
    this.observed.push(answer.kind);
    super.observe(chatId, answer);
  }

  /** Forgets what was counted so far. */
  reset(): void {
    this.reserved = [];
    this.observed = [];
  }
}
