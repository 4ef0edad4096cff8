/**
 * Fuzzing the webhook ingress of each provider (GitHub, Gitea, custom with its three signing
 * schemes), on the global and the per-group endpoints: hostile headers and bodies, signed
 * correctly or not. Never a 5xx or a crash; a refused request writes nothing.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import fc from "fast-check";
import { utf8 } from "../../lib/encoding.ts";
import { signCustomBody } from "../../lib/providers/custom.ts";
import { signGiteaBody } from "../../lib/providers/gitea.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { signStandardWebhook } from "../../testing/standard_webhooks_sender.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { regenerateGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { ALPHA } from "../_admin_helpers.ts";
import { startTestApp } from "../_helpers.ts";
import {
  headerValue,
  hostileHeaders,
  hostileString,
  idLike,
  mutationsOf,
  RAW_PATH_PARTS,
  rawBody,
} from "../fuzz_arbitraries.ts";
import { fuzz, type FuzzApp, FuzzBench } from "../fuzz_harness.ts";

const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const SECRETS = {
  GITHUB_WEBHOOK_SECRET: "github-fuzz-secret",
  GITEA_WEBHOOK_SECRET: "gitea-fuzz-secret",
  CUSTOM_WEBHOOK_SECRET: `custom-fuzz-secret,${WHSEC}`,
};

/** The group secret of `alpha` in the current app (set when the app starts). */
const groupSecrets = new WeakMap<Kv, string>();

async function startIngress(): Promise<FuzzApp> {
  const t = await startTestApp(SECRETS);
  await putGroup(t.kv, ALPHA);
  groupSecrets.set(t.kv, await regenerateGroupSecret(t.kv, "alpha"));
  return {
    kv: t.kv,
    fetch: (request) => t.app.fetch(request),
    [Symbol.asyncDispose]: () => t[Symbol.asyncDispose](),
  };
}

const PUSH = {
  ref: "refs/heads/main",
  repository: { full_name: "octo/repo", owner: { login: "octo" } },
  installation: { id: 42 },
  pusher: { name: "octo" },
  commits: [{ id: "abc", message: "fix", author: { name: "x" } }],
};

/** A body: hostile raw text or bytes, or a mutated event payload. */
const body = fc.oneof(
  { weight: 1, arbitrary: rawBody },
  { weight: 2, arbitrary: mutationsOf(PUSH).map((value) => JSON.stringify(value) ?? "null") },
).map((value) => typeof value === "string" ? utf8(value) : value);

const path = fc.oneof(
  { weight: 3, arbitrary: fc.constant("/webhook") },
  { weight: 2, arbitrary: fc.constant("/webhook/alpha") },
  { weight: 1, arbitrary: idLike.map((id) => `/webhook/${encodeURIComponent(id.toWellFormed())}`) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_PARTS).map((part) => `/webhook/${part}`) },
);

const eventName = fc.oneof(
  fc.constantFrom("push", "pull_request", "issues", "ping", "installation", "release", "custom"),
  headerValue,
);

/** How a request is signed: right, with another secret, garbled, or not at all. */
const signing = fc.constantFrom("right", "wrong", "garbled", "none");

interface Case {
  path: string;
  body: Uint8Array<ArrayBuffer>;
  event: string;
  delivery: string;
  signing: "right" | "wrong" | "garbled" | "none";
  extra: [string, string][];
}

const caseOf = fc.record({
  path,
  body,
  event: eventName,
  delivery: fc.oneof(fc.uuid(), headerValue),
  signing,
  extra: hostileHeaders,
});

function secretFor(app: FuzzApp, path: string, global: string): string {
  return path === "/webhook/alpha" ? groupSecrets.get(app.kv) ?? global : global;
}

function request(path: string, headers: Headers, body: Uint8Array<ArrayBuffer>): Request {
  return new Request(`http://localhost${path}`, { method: "POST", headers, body });
}

function headersOf(extra: [string, string][], own: Record<string, string>): Headers {
  const headers = new Headers();
  for (const [name, value] of extra) headers.set(name, value);
  for (const [name, value] of Object.entries(own)) headers.set(name, value);
  return headers;
}

async function signature(
  kind: Case["signing"],
  sign: (secret: string) => Promise<string>,
  secret: string,
): Promise<string | undefined> {
  if (kind === "none") return undefined;
  if (kind === "garbled") return (await sign(secret)).slice(0, -3) + "zzz";
  return await sign(kind === "right" ? secret : "some-other-secret");
}

function withOptional(own: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(own).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

Deno.test("fuzz: GitHub ingress", async () => {
  await using bench = new FuzzBench(startIngress, "github");
  await fuzz(caseOf, (c) =>
    bench.send(async (app) => {
      const secret = secretFor(app, c.path, SECRETS.GITHUB_WEBHOOK_SECRET);
      const sig = await signature(c.signing, (s) => signGithubBody(s, c.body), secret);
      const own = withOptional({
        "x-github-event": c.event,
        "x-github-delivery": c.delivery,
        "x-hub-signature-256": sig,
      });
      return request(c.path, headersOf(c.extra, own), c.body);
    }, "github"));
});

Deno.test("fuzz: Gitea ingress", async () => {
  await using bench = new FuzzBench(startIngress, "gitea");
  await fuzz(caseOf, (c) =>
    bench.send(async (app) => {
      const secret = secretFor(app, c.path, SECRETS.GITEA_WEBHOOK_SECRET);
      const sig = await signature(c.signing, (s) => signGiteaBody(s, c.body), secret);
      const own = withOptional({
        "x-gitea-event": c.event,
        "x-gitea-delivery": c.delivery,
        "x-gitea-signature": sig,
      });
      return request(c.path, headersOf(c.extra, own), c.body);
    }, "gitea"));
});

const customScheme = fc.constantFrom("plain", "replay", "standard");
const timestamp = fc.oneof(
  fc.constant("now"),
  fc.integer({ min: -1_000, max: 1_000 }).map(String),
  headerValue,
);

Deno.test("fuzz: custom ingress (plain, replay-protected and Standard Webhooks)", async () => {
  await using bench = new FuzzBench(startIngress, "custom");
  const arbitrary = fc.record({
    base: caseOf,
    scheme: customScheme,
    timestamp,
    nonce: fc.oneof(fc.uuid(), hostileString.filter((s) => s.length < 200)),
  });
  await fuzz(arbitrary, ({ base: c, scheme, timestamp, nonce }) =>
    bench.send(async (app) => {
      const seconds = timestamp === "now"
        ? Math.floor(Date.now() / 1000)
        : Number.parseInt(timestamp, 10) || 0;
      const stamp = timestamp === "now" ? String(seconds) : timestamp;
      const safeNonce = nonce.replace(/[^\x20-\x7e]/g, "");
      if (scheme === "standard") {
        const secret = c.path === "/webhook/alpha" ? secretFor(app, c.path, WHSEC) : WHSEC;
        const sign = (s: string) =>
          s.startsWith("whsec_")
            ? signStandardWebhook(s, c.delivery, seconds, c.body)
            : signCustomBody(s, c.body);
        const sig = await signature(c.signing, sign, secret);
        const own = withOptional({
          "webhook-id": c.delivery,
          "webhook-timestamp": stamp,
          "webhook-signature": sig,
        });
        return request(c.path, headersOf(c.extra, own), c.body);
      }
      const secret = secretFor(app, c.path, "custom-fuzz-secret");
      const replay = scheme === "replay" ? { timestamp: seconds, nonce: safeNonce } : undefined;
      const sig = await signature(c.signing, (s) => signCustomBody(s, c.body, replay), secret);
      const own = withOptional({
        "x-switchyard-signature": sig,
        "x-switchyard-timestamp": replay ? stamp : undefined,
        "x-switchyard-nonce": replay ? safeNonce : undefined,
        "x-switchyard-event": c.event,
      });
      return request(c.path, headersOf(c.extra, own), c.body);
    }, `custom ${scheme}`));
});
