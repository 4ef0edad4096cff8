/**
 * `POST /telegram/webhook`: Telegram's updates for the bot. The secret header is checked
 * before the body is read (missing or wrong: 401; no bot or secret configured: 503); the
 * body is read within 256 KiB (413, 408) and must be JSON (400) holding an update (400).
 * Every accepted update is answered 200 `{ ok: true }`. The work an update asks for (calls
 * to GitHub and Telegram) gets a short head start, so a quick command is done before the
 * answer; whatever is still running after it goes on after the answer, and its failures are
 * logged, never thrown.
 */
import type { Kv } from "../../store/backend/types.ts";
import { type Config, FEATURES } from "../../config.ts";
import { type Adapters, chatAdapter } from "../../delivery/adapters.ts";
import { HttpError } from "../../fresh/mod.ts";
import { readJsonBody } from "../../http_body.ts";
import { claimTelegramUpdate } from "../../store/auth/telegram_updates.ts";
import { retryTransient } from "../../store/transient.ts";
import type { Logger } from "../../log.ts";
import type { PlatformAdapter } from "../../platform/adapter.ts";
import { TelegramBot } from "./bot.ts";
import type { TelegramChatContext } from "./context.ts";
import { handleUpdate } from "./dispatch.ts";
import { SECRET_HEADER, secretMatches } from "./secret.ts";
import { readUpdate } from "./update.ts";

/** Largest update body read. */
const UPDATE_BODY_BYTES = 256 * 1024;

/** How long the answer waits for an update's work before it answers anyway. */
const ANSWER_WITHIN_MS = 2_500;

/** The services the webhook needs (a request's state fits). */
interface TelegramWebhookDeps {
  kv: Kv;
  config: Config;
  log: Logger;
  /** The process's chat adapters, shared with the delivery worker. */
  adapters: Adapters;
}

interface BotState {
  bot: TelegramBot;
  /** Updates still being handled. */
  running: Set<Promise<void>>;
}

const bots = new WeakMap<Config, BotState>();

/** The bot of the app with `config`, calling through `adapter`. */
function botStateFor(config: Config, adapter: PlatformAdapter): BotState {
  let state = bots.get(config);
  if (!state) {
    state = {
      bot: new TelegramBot(adapter),
      running: new Set(),
    };
    bots.set(config, state);
  }
  return state;
}

/** Waits for `work` at most `ms`; never rejects. */
async function headStart(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Answers one webhook request (see the module comment). */
export async function handleTelegramWebhook(
  deps: TelegramWebhookDeps,
  req: Request,
): Promise<Response> {
  const secret = deps.config.telegram.webhookSecret;
  if (!FEATURES["Telegram bot"](deps.config) || secret === undefined) {
    throw new HttpError(
      503,
      "Telegram bot is not configured: set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET",
    );
  }
  if (!await secretMatches(req.headers.get(SECRET_HEADER), secret)) {
    await req.body?.cancel();
    throw new HttpError(401, "Missing or wrong X-Telegram-Bot-Api-Secret-Token");
  }
  const body = await readJsonBody(req, { maxBytes: UPDATE_BODY_BYTES });
  const work = readUpdate(body);
  if (work === null) {
    throw new HttpError(400, "Not a Telegram update: expected an object with a numeric update_id");
  }
  const adapter = chatAdapter(deps.adapters, "telegram");
  const { bot, running } = botStateFor(deps.config, adapter);
  const taken = work.kind !== "ignored" &&
    await retryTransient(
      deps.log,
      "take a Telegram update",
      () => claimTelegramUpdate(deps.kv, work.updateId),
    );
  if (taken) {
    const ctx: TelegramChatContext = {
      kv: deps.kv,
      config: deps.config,
      log: deps.log,
      bot,
      adapter,
    };
    const handling = handleUpdate(ctx, work)
      .catch((error) =>
        deps.log.error("telegram: update failed", { updateId: work.updateId, error })
      )
      .finally(() => running.delete(handling));
    running.add(handling);
    await headStart(handling, ANSWER_WITHIN_MS);
  }
  return Response.json({ ok: true });
}

/**
 * Resolves once every update the app with `config` is handling has been handled (also those
 * still running after their answer): for a shutdown, and for tests.
 */
export async function updatesHandled(config: Config): Promise<void> {
  const running = bots.get(config)?.running;
  while (running && running.size > 0) await Promise.all(running);
}
