/**
 * One delivery instance in its own process, on a shared store (a KV file, or a PostgreSQL
 * database with `--database`): the job
 * worker with the delivery worker, its limiters scaled like the fakes'
 * limits. Used by the multi-instance test, the delivery benchmark and the
 * fault suite, which start several of these on one file.
 *
 *   deno run -A testing/delivery_instance.ts (--kv FILE | --database URL) --discord URL --telegram URL
 *     [--scale 1] [--lease-ms 20000] [--sweep-ms 5000] [--stall-ms 10000]
 *
 * Prints `ready` on stdout once listening; stops gracefully on SIGTERM. Each
 * line on stdin is the title of a custom event to accept (as the ingress does,
 * so its deliver job is added in the accepting commit): a JSON object whose
 * `title` becomes the message's title and whose other fields join the payload;
 * the instance answers `accepted <title> <eventId>`; the line `#sends` asks for the times this
 * instance let Telegram messages go, per chat (`sends <json>`), so a test can
 * check the pacing of all instances together, independently of how late each
 * request reached the fake.
 */
import type { Kv } from "../lib/store/backend/types.ts";
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config.ts";
import { createDeliveryWorker } from "../lib/delivery/worker.ts";
import { DiscordRateLimiter } from "../lib/discord/rate_limit.ts";
import { createLogger } from "../lib/log.ts";
import { utf8 } from "../lib/encoding.ts";
import { saveEvent } from "../lib/store/delivery/events.ts";
import { closeStore, openStore } from "../lib/store/kv.ts";
import { startQueueWorker } from "../lib/delivery/job_worker.ts";
import { TELEGRAM_LIMITS, TelegramPacer } from "../lib/telegram/pacer.ts";

/** A pacer that remembers when it let each message to each chat go. */
class RecordingPacer extends TelegramPacer {
  readonly sends = new Map<string, number[]>();

  override sending(chatId: string): void {
    super.sending(chatId);
    const times = this.sends.get(chatId) ?? [];
    times.push(Date.now());
    this.sends.set(chatId, times);
  }
}

/** Telegram's limits with every window divided by `scale`. */
export function scaledTelegramLimits(scale: number) {
  return {
    chatIntervalMs: TELEGRAM_LIMITS.chatIntervalMs / scale,
    groupMax: TELEGRAM_LIMITS.groupMax,
    groupWindowMs: TELEGRAM_LIMITS.groupWindowMs / scale,
    globalMax: TELEGRAM_LIMITS.globalMax,
    globalWindowMs: TELEGRAM_LIMITS.globalWindowMs / scale,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      kv: { type: "string" },
      database: { type: "string" },
      discord: { type: "string" },
      telegram: { type: "string" },
      scale: { type: "string", default: "1" },
      "lease-ms": { type: "string", default: "20000" },
      "sweep-ms": { type: "string", default: "5000" },
      "stall-ms": { type: "string", default: "10000" },
      "log-level": { type: "string", default: "warn" },
    },
  });
  const scale = Number(values.scale);
  const kv = await openStore({ kvPath: values.kv, databaseUrl: values.database });
  const config = loadConfig({
    ...(values.database ? { DATABASE_URL: values.database } : { KV_PATH: values.kv! }),
    DISCORD_BOT_TOKEN: "instance-token",
    DISCORD_API_URL: values.discord!,
    TELEGRAM_BOT_TOKEN: "1:instance",
    TELEGRAM_API_URL: values.telegram!,
  });
  const log = createLogger({ minLevel: values["log-level"] as "warn" });
  const pacer = new RecordingPacer({ limits: scaledTelegramLimits(scale) });
  const worker = createDeliveryWorker({
    kv,
    config,
    log,
    limiters: {
      discord: new DiscordRateLimiter({ global: { max: 50, windowMs: 1000 / scale } }),
      telegram: pacer,
    },
    maxSleepMs: 1000 / scale,
    leaseMs: Number(values["lease-ms"]),
    sweepEveryMs: Number(values["sweep-ms"]),
    stallMs: Number(values["stall-ms"]),
  });
  const queue = startQueueWorker(kv, worker.handlers, log);
  // A store busy with the other instances may refuse these; the periodic sweep does the rest.
  await worker.upkeep().catch((error) => log.warn("upkeep failed", { error }));
  await worker.sweep().catch((error) => log.warn("sweep failed", { error }));
  console.log("ready");
  acceptFromStdin(kv, pacer);
  Deno.addSignalListener("SIGTERM", async () => {
    await queue.drain(5_000);
    await worker.close();
    await closeStore(kv);
    Deno.exit(0);
  });
}

async function acceptFromStdin(kv: Kv, pacer: RecordingPacer) {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of Deno.stdin.readable) {
    pending += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line === "#sends") {
        console.log(`sends ${JSON.stringify(Object.fromEntries(pacer.sends))}`);
        continue;
      }
      const { title, ...fields } = JSON.parse(line) as { title: string };
      const outcome = await saveEvent(kv, {
        provider: "custom",
        kind: "custom",
        scope: { type: "global" },
        receivedAt: Date.now(),
        headers: {},
        body: utf8(JSON.stringify({ ...fields, message: { title } })),
      });
      const eventId = outcome.status === "accepted" ? outcome.eventId : "-";
      console.log(`accepted ${title} ${eventId}`);
    }
  }
}

if (import.meta.main) await main();
