/**
 * An attacker-style pass over every route of the manifest: hostile ids in every path
 * parameter, hostile bodies for every writing method, signed-in as a member of another group,
 * as nobody, and from another site. Nothing may answer 5xx (but the 503 of a feature whose
 * settings are absent), and the other group's data must stay as it was.
 */
import assert from "node:assert/strict";
import manifest from "../../fresh.gen.ts";
import { getGroup } from "../../lib/store/config/groups.ts";
import { getRoutes, replaceRoutes } from "../../lib/store/config/routes.ts";
import { BETA, type Caller, route, startAdminApp } from "../_admin_helpers.ts";
import { type FakeGitHub, githubEnv, startFakeGitHub } from "../fake_github.ts";

const HOSTILE_IDS = ["x".repeat(3000), "constructor", "__proto__", "..%2F..%2Fhealth", "beta"];

function deepArray(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

const HOSTILE_BODIES: string[] = [
  deepArray(10_000),
  `{"node":{"type":"field","path":"$..*","value":1},"payload":${deepArray(5_000)}}`,
  '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
  "not json",
  "null",
  `{"routes":[${'{"id":"a"},'.repeat(5_000)}{"id":"b"}]}`,
  JSON.stringify({ groups: [{ id: "beta", name: "mine", members: [] }] }),
];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The URL paths of the manifest's routes, with each parameter replaced by `value`. */
function pathsWith(value: string): string[] {
  return Object.keys(manifest.routes)
    .filter((file) => !file.split("/").some((part) => part.startsWith("_")))
    .map((file) => {
      const path = file.replace(/\.[jt]sx?$/, "").replace(/(^|\/)index$/, "");
      return "/" + path.replace(/\[(?:\.\.\.)?\w+\]/g, encodeURIComponent(value));
    });
}

/** Every feature on, GitHub answered by the fake. */
function configured(fake: FakeGitHub): Record<string, string> {
  return githubEnv(fake, {
    GITHUB_WEBHOOK_SECRET: "global-secret",
    GITEA_WEBHOOK_SECRET: "global-secret",
    CUSTOM_WEBHOOK_SECRET: "global-secret",
    DISCORD_APPLICATION_ID: "100000000000000001",
    DISCORD_PUBLIC_KEY: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    TELEGRAM_BOT_TOKEN: "123456:attacker-pass",
    TELEGRAM_WEBHOOK_SECRET: "attacker_pass_secret",
    TOKEN_ENCRYPTION_KEY: btoa(String.fromCharCode(...new Uint8Array(32).fill(7))),
  });
}

for (const features of ["off", "on"] as const) {
  Deno.test(`attacker pass (features ${features}): no route answers 5xx to hostile ids, bodies, callers or origins`, async () => {
    await using fake = startFakeGitHub();
    await using app = await startAdminApp(features === "on" ? configured(fake) : {});
    await replaceRoutes(app.kv, [route("beta", "b1")], null);
    const betaBefore = await getGroup(app.kv, "beta");
    const routesBefore = (await getRoutes(app.kv)).routes;
    const failures: string[] = [];
    const callers: Caller[] = ["owner", "none"];
    for (const value of HOSTILE_IDS) {
      for (const path of pathsWith(value)) {
        for (const method of METHODS) {
          const bodies = method === "GET" || method === "DELETE" ? [undefined] : HOSTILE_BODIES;
          for (const body of bodies) {
            for (const caller of callers) {
              for (const origin of [undefined, "https://evil.example"]) {
                const headers: Record<string, string> = { "content-type": "application/json" };
                if (caller !== "none") headers.cookie = await app.cookie(caller);
                if (origin) headers.origin = origin;
                const res = await app.t.fetch(path, { method, headers, body, redirect: "manual" });
                const text = await res.text();
                const switchedOff = res.status === 503 && text.includes("is not configured");
                if (res.status >= 500 && !switchedOff) {
                  failures.push(`${res.status} ${method} ${path.slice(0, 80)} as ${caller}`);
                }
              }
            }
          }
        }
      }
    }
    assert.deepEqual(failures.slice(0, 20), []);
    assert.deepEqual(await getGroup(app.kv, "beta"), betaBefore ?? BETA);
    assert.deepEqual(
      (await getRoutes(app.kv)).routes.filter((r) => r.groupId === "beta"),
      routesBefore.filter((r) => r.groupId === "beta"),
    );
  });
}
