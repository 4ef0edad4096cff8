/**
 * Fuzzing the chat endpoints, `POST /discord/interactions` and `POST /telegram/webhook`:
 * hostile bodies and headers, signed with the configured key or secret, or not. Whether the
 * endpoints exist or answer 404, the invariant holds: never a 5xx or a crash, and a refused
 * request writes nothing.
 */
import fc from "fast-check";
import { toHex, utf8 } from "../../lib/encoding.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { ALPHA } from "../_admin_helpers.ts";
import { startTestApp } from "../_helpers.ts";
import {
  headerValue,
  hostileHeaders,
  hostileJson,
  mutationsOf,
  rawBody,
} from "../fuzz_arbitraries.ts";
import { fuzz, type FuzzApp, FuzzBench } from "../fuzz_harness.ts";

const TELEGRAM_SECRET = "telegram-fuzz-secret";
const keys = await crypto.subtle.generateKey("Ed25519", true, ["sign", "verify"]) as CryptoKeyPair;
const publicKey = toHex(new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey)));

async function startChat(): Promise<FuzzApp> {
  const t = await startTestApp({
    DISCORD_APPLICATION_ID: "123456789012345678",
    DISCORD_PUBLIC_KEY: publicKey,
    DISCORD_BOT_TOKEN: "discord-fuzz-token",
    TELEGRAM_BOT_TOKEN: "123456:fuzz-token",
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    DISCORD_API_URL: "http://127.0.0.1:9/api",
    TELEGRAM_API_URL: "http://127.0.0.1:9",
  });
  await putGroup(t.kv, ALPHA);
  return {
    kv: t.kv,
    fetch: (request) => t.app.fetch(request),
    [Symbol.asyncDispose]: () => t[Symbol.asyncDispose](),
  };
}

const INTERACTION = {
  type: 2,
  id: "1",
  application_id: "123456789012345678",
  token: "tok",
  guild_id: "42",
  channel_id: "43",
  member: { user: { id: "44", username: "u" }, permissions: "8" },
  data: {
    name: "gh",
    options: [{ name: "subscribe", type: 1, options: [{ name: "group", value: "alpha" }] }],
  },
};

const UPDATE = {
  update_id: 1,
  message: {
    message_id: 1,
    date: 1,
    chat: { id: -1001, type: "supergroup" },
    from: { id: 7, is_bot: false, first_name: "x" },
    text: "/subscribe alpha",
    entities: [{ type: "bot_command", offset: 0, length: 10 }],
  },
};

const json = (value: unknown) => JSON.stringify(value) ?? "null";
const bodyOf = (valid: unknown) =>
  fc.oneof(
    { weight: 3, arbitrary: mutationsOf(valid).map(json) },
    { weight: 1, arbitrary: fc.constant(json({ type: 1 })) },
    { weight: 1, arbitrary: hostileJson.map(json) },
    { weight: 1, arbitrary: rawBody },
  ).map((value) => typeof value === "string" ? utf8(value) : value);

Deno.test("fuzz: Discord interactions", async () => {
  await using bench = new FuzzBench(startChat, "discord interactions");
  const arbitrary = fc.record({
    body: bodyOf(INTERACTION),
    signing: fc.constantFrom("right", "wrong", "none"),
    timestamp: fc.oneof(fc.constant("now"), headerValue),
    extra: hostileHeaders,
  });
  await fuzz(arbitrary, async (c) => {
    const headers = new Headers();
    for (const [name, value] of c.extra) headers.set(name, value);
    const timestamp = c.timestamp === "now" ? String(Math.floor(Date.now() / 1000)) : c.timestamp;
    headers.set("x-signature-timestamp", timestamp);
    if (c.signing !== "none") {
      const message = new Uint8Array([...utf8(timestamp), ...c.body]);
      const signature = new Uint8Array(
        await crypto.subtle.sign("Ed25519", keys.privateKey, message),
      );
      if (c.signing === "wrong") signature[0] ^= 1;
      headers.set("x-signature-ed25519", toHex(signature));
    }
    headers.set("content-type", "application/json");
    await bench.send(
      new Request("http://localhost/discord/interactions", {
        method: "POST",
        headers,
        body: c.body,
      }),
    );
  });
});

Deno.test("fuzz: Telegram bot updates", async () => {
  await using bench = new FuzzBench(startChat, "telegram webhook");
  const arbitrary = fc.record({
    body: bodyOf(UPDATE),
    secret: fc.oneof(
      { weight: 3, arbitrary: fc.constant(TELEGRAM_SECRET) },
      { weight: 1, arbitrary: headerValue },
    ),
    extra: hostileHeaders,
  });
  await fuzz(arbitrary, (c) => {
    const headers = new Headers();
    for (const [name, value] of c.extra) headers.set(name, value);
    headers.set("x-telegram-bot-api-secret-token", c.secret);
    headers.set("content-type", "application/json");
    return bench.send(
      new Request("http://localhost/telegram/webhook", { method: "POST", headers, body: c.body }),
    );
  });
});
