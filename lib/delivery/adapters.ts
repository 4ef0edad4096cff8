/**
 * The chat platforms delivery sends to, each described once: its adapter (every call, with its
 * rate limiter), how a message is rendered for it, how short texts are written there, its name,
 * the settings that turn it on, and what to fix when the bot cannot post somewhere. Adding a
 * platform means its adapter folder, its formatter in `lib/format`, and one entry here.
 */
import { type Config, FEATURES } from "../config.ts";
import { createDiscordAdapter } from "../discord/adapter.ts";
import type { DiscordRateLimiter } from "../discord/rate_limit.ts";
import type { ChatText } from "../format/chat_text.ts";
import { type DiscordActions, renderDiscord } from "../format/discord.ts";
import { DISCORD_TEXT } from "../format/discord_text.ts";
import type { Message } from "../format/message.ts";
import type { MentionedUsers } from "../format/mentions.ts";
import type { RunActions } from "../format/run_buttons.ts";
import { renderTelegram } from "../format/telegram.ts";
import { TELEGRAM_TEXT } from "../format/telegram_text.ts";
import type { PlatformAdapter } from "../platform/adapter.ts";
import { createTelegramAdapter } from "../telegram/adapter.ts";
import type { TelegramPacer } from "../telegram/pacer.ts";
import type { Platform } from "../types.ts";

/** The rate limiters of the adapters (tests and the benchmark pass scaled ones). */
export interface Limiters {
  discord?: DiscordRateLimiter;
  telegram?: TelegramPacer;
}

/** What a notification carries besides its message: buttons, role pings, linked users. */
export interface RenderExtras {
  actions?: DiscordActions | RunActions;
  /** Discord roles the route pings. */
  roleIds?: string[];
  mentioned?: MentionedUsers;
}

/** What a platform answered a call: its HTTP status and error text. */
export interface PlatformAnswer {
  httpStatus?: number;
  error?: string;
}

/** One chat platform, as the rest of the app needs to know it. */
export interface ChatPlatform {
  /** Its name in messages and pages. */
  readonly name: string;
  /** The setting that holds its bot token. */
  readonly tokenSetting: string;
  /** Whether this instance can post there. */
  configured(config: Config): boolean;
  /** Whether pressing a notification's buttons reaches this instance. */
  buttonsWork(config: Config): boolean;
  /** Whether an answer means the bot cannot post to the target until someone acts. */
  refusedForGood(answer: PlatformAnswer): boolean;
  /** What to change when the bot cannot post to a target: as a sentence, and inside a notice. */
  readonly cannotPostFix: { sentence: string; clause: string };
  /** How short texts are written there. */
  readonly text: ChatText;
  /** `message` as the platform's message body. */
  render(message: Message, extras?: RenderExtras): unknown;
  /** Its adapter, with the limiter from `limiters` or a default one. */
  createAdapter(config: Config, limiters: Limiters): PlatformAdapter;
}

/** Every chat platform, by name. */
export const PLATFORMS: ReadonlyMap<Platform, ChatPlatform> = new Map<Platform, ChatPlatform>([
  ["discord", {
    name: "Discord",
    tokenSetting: "DISCORD_BOT_TOKEN",
    configured: FEATURES.Discord,
    buttonsWork: FEATURES["Discord interactions"],
    refusedForGood: (answer) => answer.httpStatus === 403 || answer.httpStatus === 404,
    cannotPostFix: {
      sentence: "Invite the bot to the server and give it View Channel and Send Messages in " +
        "this channel (Send Messages in Threads for a thread).",
      clause: "invite the bot back and give it View Channel and Send Messages there",
    },
    text: DISCORD_TEXT,
    render: (message, extras = {}) =>
      renderDiscord(message, {
        roleIds: extras.roleIds,
        userIds: extras.mentioned?.discordUserIds,
        actions: extras.actions,
      }),
    createAdapter: (config, limiters) => createDiscordAdapter(config, limiters.discord),
  }],
  ["telegram", {
    name: "Telegram",
    tokenSetting: "TELEGRAM_BOT_TOKEN",
    configured: FEATURES.Telegram,
    buttonsWork: FEATURES["Telegram bot"],
    refusedForGood: (answer) =>
      answer.httpStatus === 403 ||
      (answer.httpStatus === 400 &&
        /chat not found|not enough rights|topic_closed|thread not found/.test(
          (answer.error ?? "").toLowerCase(),
        )),
    cannotPostFix: {
      sentence: "Add the bot to the chat (as an admin in a channel) and let it post in the " +
        "topic, or check the chat id.",
      clause: "add the bot back to the chat (as an admin in a channel) and let it post there",
    },
    text: TELEGRAM_TEXT,
    render: (message, extras = {}) =>
      renderTelegram(message, extras.actions, extras.mentioned?.telegramUsers),
    createAdapter: (config, limiters) => createTelegramAdapter(config, limiters.telegram),
  }],
]);

/** The description of `platform` (every {@link Platform} has one). */
export function chatPlatform(platform: Platform): ChatPlatform {
  const found = PLATFORMS.get(platform);
  if (!found) throw new Error(`no chat platform ${platform}`);
  return found;
}

/** For each platform, whether `holds` says yes of it. */
export function perPlatform(
  holds: (platform: ChatPlatform) => boolean,
): Record<Platform, boolean> {
  return Object.fromEntries(
    [...PLATFORMS].map(([name, platform]) => [name, holds(platform)]),
  ) as Record<Platform, boolean>;
}

/** The adapters by platform name. */
export type Adapters = ReadonlyMap<string, PlatformAdapter>;

/** The adapter of `platform` in `adapters` ({@link createAdapters} makes one for each). */
export function chatAdapter(adapters: Adapters, platform: Platform): PlatformAdapter {
  const adapter = adapters.get(platform);
  if (!adapter) throw new Error(`no adapter for ${platform}`);
  return adapter;
}

/** One adapter per platform, each with its limiter from `limiters` or a default one. */
export function createAdapters(config: Config, limiters: Limiters = {}): Adapters {
  return new Map([...PLATFORMS].map(([name, platform]) => [
    name,
    platform.createAdapter(config, limiters),
  ]));
}
