/**
 * Settings (the README lists them), read and validated once at start-up. Nothing is
 * required: a feature whose settings are absent is off, and its endpoints
 * answer 503 (`requireFeature` in `http_guards.ts`).
 */
import { z } from "zod";
import { fromBase64 } from "./encoding.ts";

/** A setting that failed validation; `message` is one line naming it. */
export class ConfigError extends Error {
  constructor(readonly setting: string, detail: string) {
    super(`${setting}: ${detail}`);
    this.name = "ConfigError";
  }
}

const optionalText = z.string().trim().min(1).optional();
const url = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ""));
const secretList = z.string().optional().transform((value, ctx) => {
  const secrets = (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (secrets.length > 2) {
    ctx.addIssue({ code: "custom", message: "holds at most two comma-separated secrets" });
  }
  return secrets;
});
const GITHUB_USER_ID = /^[1-9]\d{0,19}$/;
const GITHUB_LOGIN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,38}$/i;
const LOGIN_PREFIX = "login:";

/**
 * ADMIN_USER_IDS: an all-digit entry is a numeric GitHub user id and nothing
 * else; a login must be written `login:<name>` (logins can be renamed and
 * reused, ids cannot). Anything else stops start-up.
 */
const adminUsers = z.string().optional().transform((value, ctx) => {
  const ids = new Set<string>();
  const logins = new Set<string>();
  for (const entry of (value ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const login = entry.toLowerCase().startsWith(LOGIN_PREFIX)
      ? entry.slice(LOGIN_PREFIX.length)
      : null;
    if (login === null && GITHUB_USER_ID.test(entry)) ids.add(entry);
    else if (login !== null && GITHUB_LOGIN.test(login)) logins.add(login.toLowerCase());
    else {
      ctx.addIssue({
        code: "custom",
        message: `"${entry.slice(0, 60)}" is neither a numeric GitHub user id nor login:<name>`,
      });
    }
  }
  return { ids, logins };
});

/**
 * KV_PATH: a file path, `:memory:`, or a KV Connect URL. A URL must be https (plain http only
 * for a store on this machine, such as a local `denokv` server); Deno then reads
 * DENO_KV_ACCESS_TOKEN itself.
 */
const kvPath = optionalText.superRefine((value, ctx) => {
  if (value === undefined || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return;
  const parsed = URL.parse(value);
  const ok = parsed !== null && (parsed.protocol === "https:" ||
    (parsed.protocol === "http:" && isLoopbackName(parsed.hostname)));
  if (!ok) {
    ctx.addIssue({
      code: "custom",
      message: "a KV Connect URL must be https:// (http:// only for localhost)",
    });
  }
});

/**
 * DATABASE_URL: a PostgreSQL URL (`postgres://` or `postgresql://`, with a host and a database);
 * when set the store is PostgreSQL and KV_PATH is ignored. The value is never echoed in errors
 * (it may hold a password).
 */
const databaseUrl = optionalText.superRefine((value, ctx) => {
  if (value === undefined) return;
  const parsed = URL.parse(value);
  const ok = parsed !== null && (parsed.protocol === "postgres:" ||
    parsed.protocol === "postgresql:") &&
    parsed.hostname !== "" && parsed.pathname.length > 1;
  if (!ok) {
    ctx.addIssue({
      code: "custom",
      message: "must be postgres://user:password@host:port/database",
    });
  }
});

/** METRICS_TOKEN: the bearer token `GET /metrics` asks for; at least 16 characters. */
const metricsToken = z.string().trim().min(16, { error: "must be at least 16 characters" })
  .max(512, { error: "must be at most 512 characters" }).optional();

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  HOSTNAME: optionalText,
  BASE_URL: url.optional(),
  KV_PATH: kvPath,
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  DATABASE_START_WAIT_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
  GITHUB_WEBHOOK_SECRET: secretList,
  GITEA_WEBHOOK_SECRET: secretList,
  CUSTOM_WEBHOOK_SECRET: secretList,
  GITHUB_URL: url.default("https://github.com"),
  GITHUB_API_URL: url.default("https://api.github.com"),
  GITHUB_CLIENT_ID: optionalText,
  GITHUB_CLIENT_SECRET: optionalText,
  GITHUB_APP_ID: z.string().regex(/^\d+$/, "must be a number").optional(),
  GITHUB_APP_SLUG: z.string().regex(/^[a-z0-9-]+$/i, "must be the app's URL name").optional(),
  DISCORD_APPLICATION_ID: z.string().regex(/^\d+$/, "must be a snowflake id").optional(),
  DISCORD_PUBLIC_KEY: z.string().regex(/^[0-9a-f]{64}$/i, "must be 64 hex characters").optional(),
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_API_URL: url.default("https://discord.com/api/v10"),
  TELEGRAM_BOT_TOKEN: z.string().regex(/^\d+:[\w-]+$/, "must look like 123456:ABC-DEF")
    .optional(),
  TELEGRAM_WEBHOOK_SECRET: z.string().regex(/^[\w-]{1,256}$/, "1-256 of A-Z a-z 0-9 _ -")
    .optional(),
  TELEGRAM_API_URL: url.default("https://api.telegram.org"),
  ADMIN_USER_IDS: adminUsers,
  TOKEN_ENCRYPTION_KEY: z.string().optional().refine(
    (value) => value === undefined || fromBase64(value)?.length === 32,
    "must be a base64-encoded 32-byte key",
  ),
  DEBUG_MODE: z.string().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  SEND_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  GLOBAL_INGRESS_GROUPS: z.enum(["all", "claimed"]).default("all"),
  METRICS_TOKEN: metricsToken,
});

type Raw = z.infer<typeof schema>;

/** Which groups events of the global ingress enter (see `Config.globalIngressGroups`). */
type GlobalIngressGroups = "all" | "claimed";

/** The validated settings. */
export interface Config {
  port: number;
  hostname: string;
  baseUrl: string;
  /**
   * The KV path (a file, `:memory:` or a KV Connect URL), or undefined for the platform's
   * default store (Deno Deploy).
   */
  kvPath: string | undefined;
  /** The PostgreSQL URL; when set it is the store and `kvPath` is not used. */
  databaseUrl: string | undefined;
  /** Most connections the PostgreSQL store opens at once. */
  databasePoolSize: number;
  /** How long start-up keeps trying to reach PostgreSQL before it gives up (seconds). */
  databaseStartWaitSeconds: number;
  webhookSecrets: { github: string[]; gitea: string[]; custom: string[] };
  github: {
    url: string;
    apiUrl: string;
    clientId?: string;
    clientSecret?: string;
    appId?: string;
    appSlug?: string;
  };
  discord: { applicationId?: string; publicKey?: string; botToken?: string; apiUrl: string };
  telegram: { botToken?: string; webhookSecret?: string; apiUrl: string };
  /** Super admins: numeric GitHub user ids, and logins (lower-case) given as `login:<name>`. */
  adminUsers: { ids: ReadonlySet<string>; logins: ReadonlySet<string> };
  tokenEncryptionKey?: string;
  debugMode: boolean;
  logLevel: "debug" | "info" | "warn" | "error";
  sendLogRetentionDays: number;
  /**
   * Which groups events of the global ingress enter when no group is bound to the event's
   * installation (one that is bound enters only its bound groups): `all` (every group) or
   * `claimed` (only groups whose `owners` names its repository owner).
   */
  globalIngressGroups: GlobalIngressGroups;
  /** The bearer token of `GET /metrics`; the endpoint answers 404 without one. */
  metricsToken?: string;
  /** Lines to log once at start-up (for example the DEBUG_MODE warning). */
  warnings: string[];
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);
const DEFAULT_HOSTNAME = "0.0.0.0";
const DEBUG_HOSTNAME = "127.0.0.1";

/** Whether a host name (no port) is a loopback name: localhost, 127.0.0.1 or ::1 (bracketed or not). */
export function isLoopbackName(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

function checkPairs(raw: Raw): void {
  const pairs: [keyof Raw, keyof Raw][] = [
    ["GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET"],
    ["DISCORD_APPLICATION_ID", "DISCORD_PUBLIC_KEY"],
  ];
  for (const [a, b] of pairs) {
    if (raw[a] && !raw[b]) throw new ConfigError(b, `required when ${a} is set`);
    if (raw[b] && !raw[a]) throw new ConfigError(a, `required when ${b} is set`);
  }
}

/**
 * DEBUG_MODE bypasses authentication, so it is refused anywhere but a local
 * machine: on Deno Deploy, with a BASE_URL that is not local, or when asked to
 * listen on an address other than loopback (HOSTNAME defaults to 127.0.0.1 then).
 */
function checkDebugMode(raw: Raw, baseUrl: string, onDeploy: boolean): void {
  if (onDeploy) {
    throw new ConfigError("DEBUG_MODE", "refused on Deno Deploy: it bypasses authentication");
  }
  const host = new URL(baseUrl).hostname;
  if (!isLoopbackName(host)) {
    throw new ConfigError(
      "DEBUG_MODE",
      `refused: it bypasses authentication and BASE_URL's host is ${host}, not localhost`,
    );
  }
  if (raw.HOSTNAME !== undefined && !isLoopbackName(raw.HOSTNAME)) {
    throw new ConfigError(
      "HOSTNAME",
      `must be 127.0.0.1, ::1 or localhost while DEBUG_MODE is on, not ${raw.HOSTNAME}`,
    );
  }
}

/**
 * Validates the environment. Throws ConfigError naming the first bad setting.
 * `onDeploy` means the platform provides the KV store (KV_PATH unset).
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  options: { onDeploy?: boolean } = {},
): Config {
  // An empty setting (`NAME=` in an env file) counts as unset.
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue.path[0] ?? "settings"), issue.message);
  }
  const raw = parsed.data;
  checkPairs(raw);
  const baseUrl = raw.BASE_URL ?? `http://localhost:${raw.PORT}`;
  const warnings: string[] = [];
  const debugMode = raw.DEBUG_MODE === "true";
  if (debugMode) {
    checkDebugMode(raw, baseUrl, options.onDeploy || Boolean(env.DENO_DEPLOYMENT_ID));
    warnings.push("DEBUG_MODE is on: authentication is bypassed; never use it in a deployment");
  } else if (raw.DEBUG_MODE !== undefined && raw.DEBUG_MODE !== "false" && raw.DEBUG_MODE !== "") {
    warnings.push(`DEBUG_MODE is "${raw.DEBUG_MODE}", not exactly "true": debug mode stays off`);
  }
  return {
    port: raw.PORT,
    hostname: raw.HOSTNAME ?? (debugMode ? DEBUG_HOSTNAME : DEFAULT_HOSTNAME),
    baseUrl,
    kvPath: raw.KV_PATH ?? (options.onDeploy ? undefined : "./data/switchyard.kv"),
    databaseUrl: raw.DATABASE_URL,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    databaseStartWaitSeconds: raw.DATABASE_START_WAIT_SECONDS,
    webhookSecrets: {
      github: raw.GITHUB_WEBHOOK_SECRET,
      gitea: raw.GITEA_WEBHOOK_SECRET,
      custom: raw.CUSTOM_WEBHOOK_SECRET,
    },
    github: {
      url: raw.GITHUB_URL,
      apiUrl: raw.GITHUB_API_URL,
      clientId: raw.GITHUB_CLIENT_ID,
      clientSecret: raw.GITHUB_CLIENT_SECRET,
      appId: raw.GITHUB_APP_ID,
      appSlug: raw.GITHUB_APP_SLUG,
    },
    discord: {
      applicationId: raw.DISCORD_APPLICATION_ID,
      publicKey: raw.DISCORD_PUBLIC_KEY,
      botToken: raw.DISCORD_BOT_TOKEN,
      apiUrl: raw.DISCORD_API_URL,
    },
    telegram: {
      botToken: raw.TELEGRAM_BOT_TOKEN,
      webhookSecret: raw.TELEGRAM_WEBHOOK_SECRET,
      apiUrl: raw.TELEGRAM_API_URL,
    },
    adminUsers: raw.ADMIN_USER_IDS,
    tokenEncryptionKey: raw.TOKEN_ENCRYPTION_KEY,
    debugMode,
    logLevel: raw.LOG_LEVEL,
    sendLogRetentionDays: raw.SEND_LOG_RETENTION_DAYS,
    globalIngressGroups: raw.GLOBAL_INGRESS_GROUPS,
    metricsToken: raw.METRICS_TOKEN,
    warnings,
  };
}

/** Optional features and the settings that switch them on. */
export const FEATURES = {
  "GitHub sign-in": (c: Config) => Boolean(c.github.clientId && c.github.clientSecret),
  "GitHub App": (c: Config) => Boolean(c.github.appId && c.github.appSlug),
  "Discord interactions": (c: Config) => Boolean(c.discord.applicationId && c.discord.publicKey),
  "Discord": (c: Config) => Boolean(c.discord.botToken),
  "Telegram bot": (c: Config) => Boolean(c.telegram.botToken && c.telegram.webhookSecret),
  "Telegram": (c: Config) => Boolean(c.telegram.botToken),
} satisfies Record<string, (c: Config) => boolean>;

/** A feature's name. */
export type Feature = keyof typeof FEATURES;

/**
 * The settings of this process's environment (Deno Deploy recognised by `DENO_DEPLOYMENT_ID`);
 * a bad setting prints one line naming it and exits with status 1. For entry points only.
 */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig(Deno.env.toObject(), {
      onDeploy: Boolean(Deno.env.get("DENO_DEPLOYMENT_ID")),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Invalid setting ${error.message}`);
    Deno.exit(1);
  }
}
