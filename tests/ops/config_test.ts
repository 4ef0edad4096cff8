import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../lib/config.ts";
import { HttpError } from "../../lib/fresh/http_error.ts";
import { requireFeature } from "../../lib/http_guards.ts";

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail("expected a ConfigError");
}

Deno.test("loadConfig() starts with no settings at all", () => {
  const config = loadConfig({});
  assert.equal(config.port, 8000);
  assert.equal(config.hostname, "0.0.0.0");
  assert.equal(config.baseUrl, "http://localhost:8000");
  assert.equal(config.kvPath, "./data/switchyard.kv");
  assert.equal(config.github.apiUrl, "https://api.github.com");
  assert.equal(config.discord.apiUrl, "https://discord.com/api/v10");
  assert.equal(config.telegram.apiUrl, "https://api.telegram.org");
  assert.deepEqual(config.webhookSecrets, { github: [], gitea: [], custom: [] });
  assert.equal(config.debugMode, false);
  assert.equal(config.sendLogRetentionDays, 30);
  assert.deepEqual(config.warnings, []);
});

Deno.test("an empty setting (NAME= in an env file) counts as unset", () => {
  const names = [
    "PORT",
    "BASE_URL",
    "KV_PATH",
    "GITHUB_CLIENT_ID",
    "GITHUB_APP_ID",
    "GITHUB_APP_SLUG",
    "DISCORD_APPLICATION_ID",
    "DISCORD_PUBLIC_KEY",
    "TELEGRAM_BOT_TOKEN",
    "TOKEN_ENCRYPTION_KEY",
    "METRICS_TOKEN",
    "LOG_LEVEL",
    "DEBUG_MODE",
  ];
  for (const blank of ["", "  "]) {
    const config = loadConfig(Object.fromEntries(names.map((name) => [name, blank])));
    assert.deepEqual(config, loadConfig({}), JSON.stringify(blank));
  }
});

Deno.test("loadConfig() leaves KV_PATH unset on Deno Deploy", () => {
  assert.equal(loadConfig({}, { onDeploy: true }).kvPath, undefined);
  assert.equal(loadConfig({ KV_PATH: ":memory:" }, { onDeploy: true }).kvPath, ":memory:");
});

Deno.test("loadConfig() parses lists, rotation secrets and URLs", () => {
  const config = loadConfig({
    PORT: "9000",
    GITHUB_WEBHOOK_SECRET: " new-secret , old-secret ",
    ADMIN_USER_IDS: "123, login:Octocat",
    GITHUB_API_URL: "http://127.0.0.1:9999/api/",
  });
  assert.equal(config.baseUrl, "http://localhost:9000");
  assert.deepEqual(config.webhookSecrets.github, ["new-secret", "old-secret"]);
  assert.deepEqual(config.adminUsers, { ids: new Set(["123"]), logins: new Set(["octocat"]) });
  assert.equal(config.github.apiUrl, "http://127.0.0.1:9999/api");
});

Deno.test("a bad value stops start-up with one line naming the setting", () => {
  assert.match(configError({ PORT: "eighty" }), /^PORT: /);
  assert.match(configError({ PORT: "70000" }), /^PORT: /);
  assert.match(configError({ BASE_URL: "not a url" }), /^BASE_URL: /);
  assert.match(configError({ GITHUB_WEBHOOK_SECRET: "a,b,c" }), /^GITHUB_WEBHOOK_SECRET: .*two/);
  assert.match(configError({ DISCORD_PUBLIC_KEY: "xyz" }), /^DISCORD_PUBLIC_KEY: /);
  assert.match(
    configError({ TOKEN_ENCRYPTION_KEY: "c2hvcnQ=" }),
    /^TOKEN_ENCRYPTION_KEY: .*32-byte/,
  );
  assert.match(configError({ TOKEN_ENCRYPTION_KEY: "!!!" }), /^TOKEN_ENCRYPTION_KEY: /);
  assert.match(configError({ TELEGRAM_BOT_TOKEN: "nope" }), /^TELEGRAM_BOT_TOKEN: /);
  assert.match(configError({ GITHUB_CLIENT_ID: "abc" }), /^GITHUB_CLIENT_SECRET: required/);
  for (const message of [configError({ PORT: "x" }), configError({ BASE_URL: "y" })]) {
    assert.ok(!message.includes("\n"));
  }
});

Deno.test("ADMIN_USER_IDS: digits are an id only; a login needs login:<name>", () => {
  const config = loadConfig({ ADMIN_USER_IDS: " 1, login:1 " });
  assert.deepEqual(config.adminUsers, { ids: new Set(["1"]), logins: new Set(["1"]) });
  assert.deepEqual(loadConfig({ ADMIN_USER_IDS: "1" }).adminUsers.logins, new Set());
  assert.match(configError({ ADMIN_USER_IDS: "octocat" }), /^ADMIN_USER_IDS: "octocat" is neither/);
  assert.match(configError({ ADMIN_USER_IDS: "1,login:" }), /^ADMIN_USER_IDS: "login:" is neither/);
  assert.match(configError({ ADMIN_USER_IDS: "login:a b" }), /^ADMIN_USER_IDS: /);
  assert.match(configError({ ADMIN_USER_IDS: "-5" }), /^ADMIN_USER_IDS: /);
});

Deno.test("DEBUG_MODE is on only for exactly true, and only on a local BASE_URL", () => {
  const local = loadConfig({ DEBUG_MODE: "true" });
  assert.equal(local.debugMode, true);
  assert.match(local.warnings[0], /authentication is bypassed/);
  assert.equal(
    loadConfig({ DEBUG_MODE: "true", BASE_URL: "http://127.0.0.1:8000" }).debugMode,
    true,
  );
  const loose = loadConfig({ DEBUG_MODE: "TRUE" });
  assert.equal(loose.debugMode, false);
  assert.match(loose.warnings[0], /not exactly "true"/);
  assert.equal(loadConfig({ DEBUG_MODE: "1" }).debugMode, false);
  assert.match(
    configError({ DEBUG_MODE: "true", BASE_URL: "https://relay.example.com" }),
    /^DEBUG_MODE: refused/,
  );
});

Deno.test("DEBUG_MODE listens on loopback only and is refused on Deno Deploy", () => {
  assert.equal(loadConfig({ DEBUG_MODE: "true" }).hostname, "127.0.0.1");
  assert.equal(loadConfig({}).hostname, "0.0.0.0");
  assert.equal(loadConfig({ HOSTNAME: "192.168.1.5" }).hostname, "192.168.1.5");
  for (const hostname of ["::1", "localhost", "127.0.0.1"]) {
    assert.equal(loadConfig({ DEBUG_MODE: "true", HOSTNAME: hostname }).hostname, hostname);
  }
  for (const hostname of ["0.0.0.0", "::", "192.168.1.5", "relay.example"]) {
    assert.match(
      configError({ DEBUG_MODE: "true", HOSTNAME: hostname }),
      /^HOSTNAME: must be 127\.0\.0\.1, ::1 or localhost while DEBUG_MODE is on/,
    );
  }
  assert.match(
    configError({ DEBUG_MODE: "true", DENO_DEPLOYMENT_ID: "abc123" }),
    /^DEBUG_MODE: refused on Deno Deploy/,
  );
  assert.throws(
    () => loadConfig({ DEBUG_MODE: "true", KV_PATH: ":memory:" }, { onDeploy: true }),
    /refused on Deno Deploy/,
  );
});

Deno.test("requireFeature() answers 503 naming the feature when its settings are absent", () => {
  const off = loadConfig({});
  assert.throws(() => requireFeature(off, "Discord"), (error: unknown) => {
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 503);
    assert.equal(error.message, "Discord is not configured");
    return true;
  });
  const on = loadConfig({ DISCORD_BOT_TOKEN: "token" });
  requireFeature(on, "Discord");
  assert.throws(() => requireFeature(on, "Discord interactions"), HttpError);
});

Deno.test("GLOBAL_INGRESS_GROUPS is all by default, claimed on request, nothing else", () => {
  assert.equal(loadConfig({}).globalIngressGroups, "all");
  assert.equal(loadConfig({ GLOBAL_INGRESS_GROUPS: "claimed" }).globalIngressGroups, "claimed");
  assert.throws(() => loadConfig({ GLOBAL_INGRESS_GROUPS: "some" }), /GLOBAL_INGRESS_GROUPS/);
});
