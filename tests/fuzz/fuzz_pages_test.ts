/**
 * Fuzzing every page and read of the manifest (console pages, health, metrics, the OpenAPI
 * document, the root): GETs with hostile path parameters, queries and headers, by each kind of
 * caller. Never a 5xx or a crash; a refused read writes nothing. (A sign-in start answers 302
 * and stores its OAuth state: that is not a refusal.)
 */
import fc from "fast-check";
import manifest from "../../fresh.gen.ts";
import { patternOf } from "../../lib/fresh/route_table.ts";
import { type Caller, sendLog, startAdminApp, storeSendLogs } from "../_admin_helpers.ts";
import { headerValue, hostileQuery, idLike, RAW_PATH_PARTS } from "../fuzz_arbitraries.ts";
import { githubEnv, startFakeGitHub } from "../fake_github.ts";
import { fuzz, type FuzzApp, FuzzBench } from "../fuzz_harness.ts";

const CALLERS: Caller[] = ["none", "viewer", "owner", "stranger", "superAdmin"];
const LOG = sendLog(Date.UTC(2025, 0, 2), { deliveryId: "d-1", status: "failed" });

/** Every route pattern with a page or a GET, `:name` marking its parameters. */
const PATTERNS = Object.entries(manifest.routes)
  .filter(([file, mod]) => {
    if (file.startsWith("_") || file.includes("/_")) return false;
    const handler = (mod as { handler?: unknown }).handler;
    const methods = typeof handler === "object" && handler !== null ? Object.keys(handler) : [];
    return Boolean((mod as { default?: unknown }).default) || methods.includes("GET");
  })
  .map(([file]) => patternOf(file).pattern);

interface PagesApp extends FuzzApp {
  cookies: Map<Caller, string>;
}

async function startPages(): Promise<PagesApp> {
  const fake = startFakeGitHub();
  const admin = await startAdminApp(githubEnv(fake, { METRICS_TOKEN: "metrics-token-0123456789" }));
  const cookies = new Map<Caller, string>();
  for (const caller of CALLERS) {
    if (caller !== "none") cookies.set(caller, await admin.cookie(caller));
  }
  await storeSendLogs(admin.kv, [LOG]);
  return {
    kv: admin.kv,
    lines: admin.t.lines,
    cookies,
    fetch: (request) => admin.t.app.fetch(request),
    async [Symbol.asyncDispose]() {
      await admin[Symbol.asyncDispose]();
      await fake[Symbol.asyncDispose]();
    },
  };
}

const param = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("alpha", "beta", "r1", LOG.id, "d-1", "7") },
  { weight: 3, arbitrary: idLike.map((id) => encodeURIComponent(id.toWellFormed())) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_PARTS) },
);

const pageCase = fc.record({
  pattern: fc.constantFrom(...PATTERNS),
  params: fc.array(param, { minLength: 2, maxLength: 2 }),
  query: fc.oneof(fc.constant(""), hostileQuery),
  caller: fc.constantFrom(...CALLERS),
  accept: fc.constantFrom("text/html", "application/json", "*/*", ""),
  authorization: fc.option(
    fc.oneof(fc.constant("Bearer metrics-token-0123456789"), headerValue),
    { nil: undefined },
  ),
});

Deno.test("fuzz: every page and read with hostile parameters, queries and callers", async () => {
  await using bench = new FuzzBench(startPages, "pages");
  await fuzz(pageCase, (c) =>
    bench.send((app) => {
      let index = 0;
      const path = c.pattern.replace(/:\w+/g, () => c.params[index++ % c.params.length]);
      const headers = new Headers();
      if (c.accept) headers.set("accept", c.accept);
      const cookie = (app as PagesApp).cookies.get(c.caller);
      if (cookie) headers.set("cookie", cookie);
      if (c.authorization !== undefined) headers.set("authorization", c.authorization);
      return new Request(`http://localhost${path}${c.query ? `?${c.query}` : ""}`, { headers });
    }, `${c.pattern} as ${c.caller}`));
});
