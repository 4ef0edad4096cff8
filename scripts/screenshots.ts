/**
 * `deno task screenshots`: every console page at desktop (1440x900) and mobile (390x844)
 * width, light and dark, written to `screenshots/` (git-ignored) for people to look at.
 *
 * The app runs on throw-away in-memory stores in three states: empty (the first-run
 * checklist), with fixtures (groups, routes, and send logs made by signed webhooks that a
 * local fake Discord answers, one channel accepting and one refusing), and without any
 * sign-in configured (the sign-in settings page); the chat link pages too. Pages come from the route manifest, so new
 * console pages are photographed without editing this script.
 */
import type { Kv } from "../lib/store/backend/types.ts";
import { join } from "node:path";
import type { Page } from "playwright-core";
import manifest from "../fresh.gen.ts";
import { createApp, PROJECT_ROOT } from "../lib/app.ts";
import { type Config, loadConfig } from "../lib/config.ts";
import { hmacSha256 } from "../lib/crypto.ts";
import { toHex, utf8 } from "../lib/encoding.ts";
import { loadAssets } from "../lib/fresh/assets.ts";
import { createLogger } from "../lib/log.ts";
import { queueHandlers } from "../lib/queue_handlers.ts";
import { closeStore, openStore } from "../lib/store/kv.ts";
import { startChatLink } from "../lib/auth/chat_link.ts";
import { startQueueWorker } from "../lib/delivery/job_worker.ts";
import { hasChromium, launchChromium } from "./chromium.ts";

const OUT_DIR = join(PROJECT_ROOT, "screenshots");
const ACCEPTING_CHANNEL = "111111111111111111";
const REFUSING_CHANNEL = "222222222222222222";

/** Values for the route parameters of console pages (`eventId` is set from the fixtures). */
const PARAMS = new Map([["id", "web"], ["groupId", "web"], ["token", "x"], ["routeId", "bugs"]]);

/** Values that differ in one folder of routes (a send log's page takes a log id as `[id]`). */
const PARAMS_BY_FOLDER = new Map<string, Map<string, string>>();

const VIEWS = [
  { name: "desktop", width: 1440, height: 900, dark: false },
  { name: "mobile", width: 390, height: 844, dark: false },
  { name: "desktop-dark", width: 1440, height: 900, dark: true },
  { name: "mobile-dark", width: 390, height: 844, dark: true },
] as const;

/** A running app: its address, stopped with `await using`. */
interface Running extends AsyncDisposable {
  base: string;
  config: Config;
  kv: Kv;
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts the app with its job worker on an in-memory store. */
async function startApp(env: Record<string, string>): Promise<Running> {
  const port = freePort();
  const config = loadConfig({ KV_PATH: ":memory:", PORT: String(port), ...env });
  const kv = await openStore(config);
  let stopped = false;
  // Background upkeep may still run once the store is closed; its errors then mean nothing.
  const log = createLogger({ minLevel: "error", sink: (line) => stopped || console.error(line) });
  const app = createApp({ kv, config, log, assets: await loadAssets(PROJECT_ROOT) });
  const delivery = queueHandlers({ kv, config, log });
  const worker = startQueueWorker(kv, delivery.handlers, log);
  const server = Deno.serve({ port, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const base = `http://localhost:${port}`;
  return {
    base,
    config,
    kv,
    fetch: (path, init) => fetch(`${base}${path}`, init),
    async [Symbol.asyncDispose]() {
      stopped = true;
      await server.shutdown();
      await worker.drain(1000);
      await delivery.stop();
      await closeStore(kv);
    },
  };
}

/** A fake Discord: one channel accepts messages, the other answers "Unknown Channel". */
function startFakeDiscord(): Deno.HttpServer<Deno.NetAddr> {
  let sent = 0;
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    await req.body?.cancel();
    if (new URL(req.url).pathname.includes(REFUSING_CHANNEL)) {
      return Response.json({ message: "Unknown Channel", code: 10003 }, { status: 404 });
    }
    return Response.json({ id: String(1_300_000_000_000_000_000n + BigInt(++sent)) });
  });
}

async function call(app: Running, method: string, path: string, body?: unknown) {
  const res = await app.fetch(path, {
    method,
    headers: { "content-type": "application/json", origin: app.base },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

function pullRequest(number: number, title: string, labels: string[]) {
  return {
    action: "opened",
    number,
    pull_request: {
      number,
      title,
      html_url: `https://github.com/octo-org/api/pull/${number}`,
      draft: false,
      labels: labels.map((name) => ({ name })),
      user: { login: "octocat" },
      head: { ref: `fix-${number}` },
      base: { ref: "main" },
    },
    repository: { full_name: "octo-org/api", html_url: "https://github.com/octo-org/api" },
    sender: { login: "octocat" },
  };
}

/** Groups, routes, a webhook secret and signed events through the admin API and the ingress. */
async function addFixtures(app: Running): Promise<void> {
  const owner = { userId: "583231", login: "octocat", role: "owner" };
  await call(app, "PUT", "/admin/api/groups", {
    groups: [
      { id: "web", name: "Web team", members: [owner] },
      { id: "mobile", name: "Mobile apps", members: [owner] },
      { id: "infra", name: "Infrastructure", members: [owner] },
    ],
  });
  const { secret } = await call(app, "POST", "/admin/api/groups/web/webhook/regenerate");
  const labelled = (label: string) => ({
    type: "field",
    path: "pull_request.labels[*].name",
    op: "eq",
    value: label,
  });
  await call(app, "PUT", "/admin/api/groups/web/routes", {
    routes: [
      {
        id: "bugs",
        name: "Bugs to #triage",
        enabled: true,
        groupId: "web",
        filters: [{ type: "event", value: "pull_request.opened" }, labelled("bug")],
        targets: [{ platform: "discord", channelId: ACCEPTING_CHANNEL }],
      },
      {
        id: "archive",
        name: "Everything to the old channel",
        enabled: true,
        groupId: "web",
        fallback: true,
        filters: [],
        targets: [{ platform: "discord", channelId: REFUSING_CHANNEL }],
      },
    ],
  });
  const events = [
    pullRequest(101, "Fix the login redirect", ["bug"]),
    pullRequest(102, "Add dark mode", ["enhancement"]),
    pullRequest(103, "Crash on empty payload", ["bug", "backend"]),
  ];
  for (const [index, payload] of events.entries()) {
    const body = JSON.stringify(payload);
    const res = await app.fetch("/webhook/web", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": `screenshot-${index + 1}`,
        "x-hub-signature-256": `sha256=${toHex(await hmacSha256(secret, utf8(body)))}`,
      },
      body,
    });
    if (!res.ok) throw new Error(`webhook ${index + 1}: ${res.status} ${await res.text()}`);
    await res.body?.cancel();
  }
  for (let tries = 0; tries < 100; tries++) {
    const { items } = await call(app, "GET", "/admin/api/logs?groupId=web");
    const settled = items.filter((log: { status: string }) => log.status !== "retrying");
    if (settled.length >= events.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (tries === 99) console.warn("screenshots: not every event reached the fake Discord in time");
  }
  // A rotation in progress: the group page shows the new secret and the one it replaced.
  await call(app, "POST", "/admin/api/groups/web/webhook/regenerate", {
    graceSeconds: 24 * 60 * 60,
  });
  const recent = await call(app, "GET", "/admin/api/groups/web/events");
  const unlabelled = recent.items.find((event: { routeIds: string[] }) =>
    !event.routeIds.includes("bugs")
  );
  if (unlabelled) PARAMS.set("eventId", unlabelled.id);
  // a refused send's log when there is one (the refusing channel), else any
  const { items } = await call(app, "GET", "/admin/api/logs?groupId=web");
  const shown = items.find((log: { status: string }) => log.status !== "ok") ?? items[0];
  if (shown) PARAMS_BY_FOLDER.set("admin/logs", new Map([["id", shown.id]]));
}

/** The URL paths of the console's pages in the route manifest. */
function consolePages(): string[] {
  const paths: string[] = [];
  for (const [file, module] of Object.entries(manifest.routes)) {
    if (!file.startsWith("admin/") || file.includes("/api/") || !module.default) continue;
    if (file.split("/").some((part) => part.startsWith("_"))) continue;
    const path = "/" + file.replace(/\.[jt]sx?$/, "").replace(/(^|\/)index$/, "");
    const missing = [...path.matchAll(/\[(\w+)\]/g)].find(([, name]) => !PARAMS.has(name));
    if (missing) {
      console.warn(`screenshots: skipped ${path} (no value for [${missing[1]}])`);
      continue;
    }
    const own = PARAMS_BY_FOLDER.get(file.slice(0, file.lastIndexOf("/")));
    paths.push(path.replace(/\[(\w+)\]/g, (_, name) => own?.get(name) ?? PARAMS.get(name)!));
  }
  return paths.sort();
}

function fileName(path: string, view: string): string {
  const name = path.replace(/^\/admin\/?/, "").replace(/\//g, "-") || "overview";
  return `${name}-${view}.png`;
}

/** Photographs `path` in every view; warns when a narrow page overflows sideways. */
async function photograph(
  page: Page,
  base: string,
  path: string,
  prefix = "",
  name?: string,
  open?: (page: Page) => Promise<void>,
): Promise<void> {
  for (const view of VIEWS) {
    await page.setViewportSize({ width: view.width, height: view.height });
    await page.emulateMedia({ colorScheme: view.dark ? "dark" : "light" });
    if (open) await open(page);
    else await page.goto(`${base}${path}`, { waitUntil: "networkidle" });
    const file = join(
      OUT_DIR,
      prefix + (name ? `${name}-${view.name}.png` : fileName(path, view.name)),
    );
    await page.screenshot({ path: file, fullPage: true });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > view.width) console.warn(`screenshots: ${path} is ${width}px wide at ${view.name}`);
  }
  console.log(`screenshots: ${path}`);
}

/**
 * A stand-in for GitHub's sign-in: authorizing goes straight back to the callback (as for a
 * user who authorized the app before), and the code is octocat's.
 */
function startFakeGitHubSignIn(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login/oauth/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.search = new URLSearchParams({ code: "shots", state: url.searchParams.get("state")! })
        .toString();
      return Response.redirect(back, 302);
    }
    if (url.pathname === "/login/oauth/access_token") {
      return Response.json({ access_token: "shots-token", token_type: "bearer" });
    }
    return Response.json({ id: 583231, login: "octocat" });
  });
}

/** The chat link pages: the first page, the pair to confirm, the result, and a dead link. */
async function photographLinkPages(page: Page, app: Running): Promise<void> {
  const start = async (platform: "discord" | "telegram", p: Page) => {
    const url = new URL(
      await startChatLink(app.kv, app.config, {
        platform,
        chatUserId: platform === "discord" ? "80351110224678912" : "123456789",
        username: platform === "discord" ? "octocat" : "mona_lisa",
        telegramChatId: "123456789",
      }),
    );
    await p.goto(`${app.base}${url.pathname}${url.search}`, { waitUntil: "networkidle" });
  };
  const toPair = async (p: Page) => {
    await start("discord", p);
    await p.getByRole("button", { name: /continue to GitHub/ }).click();
    await p.waitForURL(/\/auth\/github\/callback/, { waitUntil: "networkidle" });
  };
  await photograph(page, app.base, "", "", "discord-link", (p) => start("discord", p));
  await photograph(page, app.base, "", "", "telegram-link", (p) => start("telegram", p));
  await photograph(page, app.base, "", "", "link-pair", toPair);
  await photograph(page, app.base, "", "", "link-done", async (p) => {
    await toPair(p);
    await p.getByRole("button", { name: /^Link / }).click();
    await p.waitForLoadState("networkidle");
  });
  await photograph(page, app.base, "/discord/link?token=unknown-0000", "", "link-unusable");
}

if (!hasChromium) {
  console.error("screenshots need chromium: apt-get install -y chromium");
  Deno.exit(1);
}
await Deno.mkdir(OUT_DIR, { recursive: true });
const discord = startFakeDiscord();
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  {
    await using empty = await startApp({ DEBUG_MODE: "true" });
    await photograph(page, empty.base, "/admin", "first-run-");
  }
  {
    await using signedOut = await startApp({});
    await photograph(page, signedOut.base, "/admin/login", "signed-out-");
  }
  {
    await using github = startFakeGitHubSignIn();
    const githubUrl = `http://127.0.0.1:${github.addr.port}`;
    await using linking = await startApp({
      GITHUB_CLIENT_ID: "shots",
      GITHUB_CLIENT_SECRET: "shots",
      GITHUB_URL: githubUrl,
      GITHUB_API_URL: githubUrl,
    });
    await photographLinkPages(page, linking);
  }
  await using app = await startApp({
    DEBUG_MODE: "true",
    DISCORD_BOT_TOKEN: "screenshots",
    DISCORD_API_URL: `http://127.0.0.1:${discord.addr.port}`,
  });
  await addFixtures(app);
  for (const path of consolePages()) await photograph(page, app.base, path);
  console.log(`screenshots: written to ${OUT_DIR}`);
} finally {
  await browser.close();
  await discord.shutdown();
}
// The delivery worker's upkeep timers keep running until the process ends, as in main.ts.
Deno.exit(0);
