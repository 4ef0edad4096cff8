/**
 * One chat platform as delivery sees it: every call to the platform (post, edit, delete, start a
 * thread) and what delivery must know about it (the channel a target posts into, where a
 * subject's message is kept, how threads work there, its rate limits). Each platform has one
 * adapter (`lib/discord/adapter.ts`, `lib/telegram/adapter.ts`); every call it makes is
 * observed by the platform's rate limiter, and the caller reserves each call into a target first
 * (`reserve`); the calls made before a target is known or trusted (opening a private chat,
 * looking up a thread's channel) reserve their own with the caller's {@link Pacing}, and so
 * does an answer to a button press (`editButtons`), a call class of its own that counts against
 * the bot-wide limit only, and every other call chat-ops makes (`botCall`: a command's reply, a
 * press's answer, a read), so the limiter sees every request and every answer.
 */
import type { CallOutcome } from "../http_client.ts";
import type { Platform, Target } from "../types.ts";
import type { EditResult } from "./edit_result.ts";
import type { Reservation } from "./even_pace.ts";
import type { LanePace } from "./lane_pace.ts";
import type { Pacing } from "./pacing.ts";
import type { SendResult } from "./send_result.ts";

/**
 * How later events of a subject follow its card in a target: in a thread started from the card
 * (`thread`), as replies to the card (`reply`), or not at all (`none`: the target cannot hold
 * threads, e.g. it is a thread itself).
 */
type ThreadStyle = "thread" | "reply" | "none";

/** Whether the thread a target names belongs to the channel the target names. */
export type ParentLookup =
  /** The target names no thread (nothing was asked). */
  | { kind: "none" }
  /** The thread is in the target's channel. */
  | { kind: "within" }
  /** The thread is elsewhere, or is no thread (`error`: which, in words). */
  | { kind: "elsewhere"; error: string }
  /** No answer to rely on: the call's result, for the retry policy. */
  | { kind: "failed"; result: SendResult };

/** How a call chat-ops makes counts against the platform's limits. */
export type BotCallClass =
  /** A message answering a person's command (in its chat, or their private chat). */
  | "reply"
  /** An answer to a button press: the bot-wide budget only (it posts nothing in a chat). */
  | "press"
  /** A read: a chat's member, the bot itself. */
  | "read";

/** A call chat-ops makes, in the platform's own terms. */
export interface BotCall {
  class: BotCallClass;
  /** The chat the call is about (a 429 on it holds that chat), or "" for none. */
  chatId: string;
  /** The platform's name of the call (a Telegram Bot API method). */
  method: string;
  /** Its parameters. */
  body: Record<string, unknown>;
}

/** The private channels a platform opened with its users before, kept by the caller. */
export interface RememberedChats {
  get(userId: string): Promise<string | null>;
  save(userId: string, channelId: string): Promise<void>;
}

/** One chat platform's calls, limits and rules. */
export interface PlatformAdapter {
  readonly platform: Platform;
  /** Why nothing can be sent (the platform is not configured), or null. */
  unavailable(): string | null;
  /** The channel or chat a message to `target` lands in (a Discord thread or channel). */
  channelOf(target: Target): string;
  /** Where the messages of one subject are kept apart in `target` (a chat's topic counts). */
  placeOf(target: Target): string;
  /** How later events of a subject follow its card in `target`. */
  threadStyle(target: Target): ThreadStyle;
  /** The target of the thread `threadId` started in `target` (for {@link ThreadStyle} `thread`). */
  inThread(target: Target, threadId: string): Target;
  /** `body` as a reply to the message `messageId` (for {@link ThreadStyle} `reply`). */
  asReply(body: unknown, messageId: string): unknown;
  /** Reserves the next call into `target` if it may go within `maxWaitMs`. */
  reserve(target: Target, maxWaitMs: number): Reservation;
  /** Posts `body` to `target`; `id` names the post, so a repeated call shows one message. */
  post(target: Target, body: unknown, id: string): Promise<SendResult>;
  /** Replaces the message `messageId` in `target` with `body`. */
  edit(target: Target, messageId: string, body: unknown): Promise<EditResult>;
  /** Deletes the message `messageId` in `target`. */
  delete(target: Target, messageId: string): Promise<SendResult>;
  /**
   * Starts a thread named `name` from the message `messageId` in `target`; a sent result's
   * `messageId` is the thread's id. Refused where {@link threadStyle} is not `thread`.
   */
  startThread(target: Target, messageId: string, name: string): Promise<SendResult>;
  /**
   * Replaces the buttons of the message `messageId` in `target` with `buttons`, answering a
   * user's press on them: reserved with `pacing` against the bot-wide limit and a hold the
   * platform asked for on the target, not the target's spacing between messages; its answer is
   * observed like any other. Refused on Discord, where a press is answered in the interaction's
   * own response, which is no bot call.
   */
  editButtons(
    target: Target,
    messageId: string,
    buttons: unknown,
    pacing: Pacing,
  ): Promise<SendResult>;
  /**
   * Makes a call chat-ops asks for (`call`), reserved with `pacing` by its class and observed
   * like every call; a reservation that would wait too long answers a 429 refusal without a
   * request. Refused on Discord, whose chat-ops answer with the interaction's own token.
   */
  botCall<T>(call: BotCall, pacing: Pacing): Promise<CallOutcome<T>>;
  /**
   * The private chat with the platform user `userId` (a Discord DM channel, taken from
   * `remembered` or opened and then remembered there; a Telegram private chat), or the answer
   * that refused it. A call that opens a channel is paced with `pacing`.
   */
  directTarget(
    userId: string,
    pacing: Pacing,
    remembered?: RememberedChats,
  ): Promise<Target | SendResult>;
  /**
   * Whether the thread named by `target` belongs to the channel it names (a Discord thread,
   * asked of the platform with `pacing`; a Telegram topic always lives in its chat: `none`).
   */
  parentOf(target: Target, pacing: Pacing): Promise<ParentLookup>;
  /** The target's rate-limit state, for the next owner of its lane. */
  paceOf(target: Target): LanePace | null;
  /** Takes on the rate-limit state the previous owner of the target's lane left. */
  adopt(target: Target, pace: LanePace): void;
  /** Keeps an even share of the bot-wide limit among `instances` instances. */
  shareGlobal(instances: number): void;
}

/** The answer of a call made to a target it does not fit (`kind`: what it needs, in words). */
export function wrongTarget(kind: string): SendResult {
  return { kind: "rejected", httpStatus: 400, error: `not a ${kind} target` };
}

/** The answer of a chat-ops call a platform does not make (`why`, in words). */
export function refusedCall(why: string): CallOutcome<never> {
  return { kind: "refused", status: 400, message: why, body: null, headers: new Headers() };
}
