/**
 * Shared helpers of the ingress tests (this module holds no tests): an
 * fresh store per test, the real GitHub payloads under `fixtures/github` (and the console's
 * samples under `static/samples/github`), and request builders that sign in the test.
 */
import type { Kv, KvKey } from "../lib/store/backend/types.ts";
import { handleWebhook, type IngressDeps } from "../lib/ingest/handle.ts";
import { signGithubBody } from "../lib/providers/github.ts";
import { utf8 } from "../lib/encoding.ts";
import { openTestKv } from "../testing/test_store.ts";

/** A fixed clock: 2026-03-01T12:00:00Z. */
export const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

/** Secrets the tests configure globally. */
export const SECRETS = {
  github: ["github-secret-current", "github-secret-previous"],
  gitea: ["gitea-secret"],
  custom: ["custom-secret"],
};

/** Runs `fn` with a fresh test store (testing/test_store.ts) that is closed afterwards. */
export async function withKv(fn: (kv: Kv) => Promise<void>): Promise<void> {
  await using kv = await openTestKv();
  await fn(kv);
}

/** Ingress dependencies over `kv` with the test secrets and a clock at {@link NOW}. */
export function testDeps(kv: Kv, overrides: Partial<IngressDeps> = {}): IngressDeps {
  return { kv, secrets: SECRETS, now: () => NOW, ...overrides };
}

/** The raw bytes of a fixture under `fixtures/github/`. */
export async function fixture(path: string): Promise<Uint8Array<ArrayBuffer>> {
  return await Deno.readFile(new URL(`../fixtures/github/${path}`, import.meta.url));
}

/** A fixture under `fixtures/github/` read as a JSON object. */
export async function fixtureJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(new TextDecoder().decode(await fixture(path)));
}

/** A console sample under `static/samples/github/` (`pull_request.opened`) read as a JSON object. */
export async function sampleJson(id: string): Promise<Record<string, unknown>> {
  return JSON.parse(
    await Deno.readTextFile(new URL(`../static/samples/github/${id}.json`, import.meta.url)),
  );
}

/** Bytes of a JSON value. */
export function jsonBytes(value: unknown): Uint8Array<ArrayBuffer> {
  return utf8(JSON.stringify(value));
}

/** A POST to the global ingress (or a group's, with `path`). */
export function webhookRequest(
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null,
  headers: Record<string, string>,
  path = "/webhook",
): Request {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A GitHub delivery of `body` signed with `secret`. */
export async function githubRequest(
  body: Uint8Array<ArrayBuffer>,
  options: { event?: string; delivery?: string; secret?: string; path?: string } = {},
): Promise<Request> {
  const headers: Record<string, string> = {
    "x-hub-signature-256": await signGithubBody(options.secret ?? SECRETS.github[0], body),
    "user-agent": "GitHub-Hookshot/abc123",
  };
  if (options.event !== "") headers["x-github-event"] = options.event ?? "pull_request";
  if (options.delivery) headers["x-github-delivery"] = options.delivery;
  return webhookRequest(body, headers, options.path);
}

/** Status and parsed JSON body of a response. */
export async function answer(response: Response): Promise<{ status: number; body: unknown }> {
  return { status: response.status, body: await response.json() };
}

/** Sends `request` through the ingress and returns status and body. */
export async function send(
  deps: IngressDeps,
  request: Request,
  groupId?: string,
): Promise<{ status: number; body: unknown }> {
  return await answer(await handleWebhook(deps, request, groupId));
}

/** Every key under `prefix`. */
export async function keysUnder(kv: Kv, prefix: KvKey): Promise<KvKey[]> {
  const keys: KvKey[] = [];
  for await (const entry of kv.list({ prefix })) keys.push(entry.key);
  return keys;
}

/** The id of the only stored event (fails when there is not exactly one). */
export async function onlyEventId(kv: Kv): Promise<string> {
  const keys = await keysUnder(kv, ["events"]);
  if (keys.length !== 1) throw new Error(`expected one stored event, found ${keys.length}`);
  return String(keys[0][1]);
}
