/**
 * The app with Discord interactions configured against local fakes (GitHub, the interaction
 * webhooks), a linked test user, and builders of signed interactions.
 */
import assert from "node:assert/strict";
import { saveDiscordLink } from "../lib/store/auth/links.ts";
import { saveToken } from "../lib/store/auth/tokens.ts";
import { startTestApp, type TestApp, waitFor } from "./_helpers.ts";
import {
  type DiscordKeys,
  discordKeys,
  type FakeDiscordWebhooks,
  signatureHeaders,
  startFakeDiscordWebhooks,
} from "./discord_fake.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub } from "./fake_github.ts";

export const APP_ID = "100000000000000001";
export const GUILD = "200000000000000002";
export const CHANNEL = "300000000000000003";
export const DISCORD_USER = "400000000000000004";
export const GRACE = { id: 7, login: "grace" };

/** The app with Discord interactions configured against the fakes. */
export interface DiscordApp extends AsyncDisposable {
  t: TestApp;
  keys: DiscordKeys;
  github: FakeGitHub;
  hooks: FakeDiscordWebhooks;
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Posts a signed interaction and answers the parsed JSON response. */
  interact(body: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Starts the app; `upstream` is the fake chat API that channel messages go to. */
export async function startDiscordApp(
  env: Record<string, string> = {},
  upstream?: string,
): Promise<DiscordApp> {
  const keys = await discordKeys();
  const github = startFakeGitHub();
  const hooks = startFakeDiscordWebhooks(upstream);
  const t = await startTestApp({
    ...githubEnv(github),
    DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_API_URL: hooks.url,
    ...env,
  });
  const post = async (body: unknown, headers?: Record<string, string>) => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return await t.fetch("/discord/interactions", {
      method: "POST",
      headers: headers ?? await signatureHeaders(keys, text),
      body: text,
    });
  };
  return {
    t,
    keys,
    github,
    hooks,
    post,
    async interact(body) {
      const res = await post(body);
      assert.equal(res.status, 200, await res.clone().text());
      return await res.json();
    },
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await hooks[Symbol.asyncDispose]();
      await github[Symbol.asyncDispose]();
    },
  };
}

/** Links the Discord user to Grace, with a stored token, as a finished `/gh link` would. */
export async function linkGrace(app: DiscordApp, discordUserId = DISCORD_USER): Promise<void> {
  const pair = app.github.issueTokens(GRACE);
  await saveToken(app.t.kv, {
    userId: String(GRACE.id),
    login: GRACE.login,
    accessToken: pair.accessToken,
    expiresAt: Date.now() + 8 * 3_600_000,
    refreshToken: pair.refreshToken,
    refreshTokenExpiresAt: Date.now() + 4000 * 3_600_000,
  }, { encryptionKey: app.t.config.tokenEncryptionKey });
  await saveDiscordLink(app.t.kv, {
    discordUserId,
    userId: String(GRACE.id),
    login: GRACE.login,
    linkedAt: Date.now(),
  });
}

let sequence = 0;

/** A base interaction from the test user in the test channel. */
export function interaction(
  type: number,
  data: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  sequence++;
  return {
    id: String(500000000000000000n + BigInt(sequence)),
    application_id: APP_ID,
    type,
    token: `token-${sequence}-${crypto.randomUUID()}`,
    version: 1,
    guild_id: GUILD,
    channel_id: CHANNEL,
    member: {
      user: { id: DISCORD_USER, username: "gracie", global_name: "Grace" },
      roles: [],
      permissions: "0",
    },
    data,
    ...extra,
  };
}

/** A `/gh <name>` command with string options. */
export function command(
  name: string,
  options: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return interaction(2, {
    id: "1",
    name: "gh",
    type: 1,
    options: [{
      name,
      type: 1,
      options: Object.entries(options).map(([key, value]) => ({ name: key, type: 3, value })),
    }],
  }, extra);
}

/** Waits for the follow-up edit of the interaction and answers its content. */
export async function followUpOf(app: DiscordApp, body: Record<string, unknown>): Promise<string> {
  const token = String(body.token);
  await waitFor("the follow-up edit", () => app.hooks.callsFor(token).length > 0);
  const [call] = app.hooks.callsFor(token);
  assert.equal(call.method, "PATCH");
  assert.equal(call.path, `/webhooks/${APP_ID}/${token}/messages/@original`);
  assert.deepEqual(call.body.allowed_mentions, { parse: [] });
  return String(call.body.content);
}
