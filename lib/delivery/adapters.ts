/** The chat platforms delivery sends to: one adapter each, with its rate limiter. */
import type { Config } from "../config.ts";
import { createDiscordAdapter } from "../discord/adapter.ts";
import type { DiscordRateLimiter } from "../discord/rate_limit.ts";
import type { PlatformAdapter } from "../platform/adapter.ts";
import { createTelegramAdapter } from "../telegram/adapter.ts";
import type { TelegramPacer } from "../telegram/pacer.ts";

/** The rate limiters of the adapters (tests and the benchmark pass scaled ones). */
export interface Limiters {
  discord?: DiscordRateLimiter;
  telegram?: TelegramPacer;
}

/** The adapters by platform name. */
export type Adapters = ReadonlyMap<string, PlatformAdapter>;

/** One adapter per platform, each with its limiter from `limiters` or a default one. */
export function createAdapters(config: Config, limiters: Limiters = {}): Adapters {
  return new Map([
    ["discord", createDiscordAdapter(config, limiters.discord)],
    ["telegram", createTelegramAdapter(config, limiters.telegram)],
  ]);
}
