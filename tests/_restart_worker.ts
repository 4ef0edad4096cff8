/**
 * The first run of the restart test (tests/delivery/delivery_restart_test.ts), in a Web Worker so that
 * the test can stop it dead, as a crash would: it opens the store, stores the route, accepts
 * the events and delivers until terminated. Its Telegram pacer lets the first
 * {@link TELEGRAM_SENT_FIRST} messages go, then keeps the lane waiting for its pace and posts
 * "telegram waiting" once, so the test knows no Telegram call is in flight. The settings both
 * runs share are exported from here.
 */
import { DiscordRateLimiter } from "../lib/discord/rate_limit.ts";
import { openStore, type StoreSettings } from "../lib/store/kv.ts";
import { TelegramPacer } from "../lib/telegram/pacer.ts";
import type { Route } from "../lib/types.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  runWorker,
  storeRoutes,
} from "./_delivery_helpers.ts";

/** What the first run needs: the store, the fakes' addresses and the events' titles. */
export interface FirstRun {
  store: StoreSettings;
  discordUrl: string;
  telegramUrl: string;
  titles: string[];
}

/** One Discord channel and one Telegram chat. */
export const RESTART_ROUTE: Route = customRoute("all", [
  { platform: "discord", channelId: "77" },
  { platform: "telegram", chatId: "88" },
]);

/** Short leases and stalls, and no sleeping: every wait is scheduled. */
export const RESTART_TIMINGS = { leaseMs: 500, maxSleepMs: 0, sweepEveryMs: 200, stallMs: 200 };

/** Telegram paced at one message per 50 ms to the chat. */
export const PACED_TELEGRAM = {
  chatIntervalMs: 50,
  groupMax: 1000,
  groupWindowMs: 1000,
  globalMax: 1000,
  globalWindowMs: 1000,
};

/** How many Telegram messages the first run sends before its lane waits for good. */
export const TELEGRAM_SENT_FIRST = 3;

class StallingPacer extends TelegramPacer {
  #granted = 0;

  override reserve(chatId: string, maxWaitMs: number): ReturnType<TelegramPacer["reserve"]> {
    if (this.#granted < TELEGRAM_SENT_FIRST) {
      const reservation = super.reserve(chatId, maxWaitMs);
      if (reservation.granted) this.#granted++;
      return reservation;
    }
    if (this.#granted++ === TELEGRAM_SENT_FIRST) self.postMessage("telegram waiting");
    return { granted: false, waitMs: PACED_TELEGRAM.chatIntervalMs };
  }
}

if (import.meta.main) {
  self.onmessage = async ({ data }: MessageEvent<FirstRun>) => {
    const kv = await openStore(data.store);
    await storeRoutes(kv, [RESTART_ROUTE]);
    const config = deliveryConfig({
      discord: { url: data.discordUrl },
      telegram: { url: data.telegramUrl },
    });
    runWorker(kv, config, {
      ...RESTART_TIMINGS,
      limiters: {
        discord: new DiscordRateLimiter(),
        telegram: new StallingPacer({ limits: PACED_TELEGRAM }),
      },
    });
    for (const title of data.titles) await acceptCustom(kv, title);
  };
}
