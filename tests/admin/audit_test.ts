/**
 * The audit log's actions: the docs list exactly the typed set, every action is recorded by the
 * code path that makes the change, and an entry is committed in the same write as its change
 * (a write that fails leaves neither).
 */
import type { AtomicOperation, Kv, KvKey } from "../../lib/store/backend/types.ts";
import assert from "node:assert/strict";
import { createApp } from "../../lib/app.ts";
import {
  AUDIT_ACTIONS,
  type AuditAction,
  listAuditEntries,
  newAuditEntry,
} from "../../lib/store/telemetry/audit.ts";
import {
  holdUnit,
  readTargetHealth,
  type TargetHealth,
  targetKeyOf,
} from "../../lib/store/delivery/target_health.ts";
import { auditPrefix, unitBodyKey } from "../../lib/store/keys.ts";
import { getSendLog, getSendLogEntry } from "../../lib/store/delivery/send_logs.ts";
import { getDiscordLink } from "../../lib/store/auth/links.ts";
import { startChatLink } from "../../lib/auth/chat_link.ts";
import { completeLinkInBrowser } from "../_chat_link_helpers.ts";
import { createSession, getSession } from "../../lib/store/auth/sessions.ts";
import { claimTarget } from "../../lib/store/config/target_claims.ts";
import { getGroupSecret } from "../../lib/store/config/group_secrets.ts";
import { getToken, saveToken } from "../../lib/store/auth/tokens.ts";
import {
  type AdminApp,
  allowTarget,
  ALPHA,
  PEOPLE,
  route,
  ROUTE_TARGET,
  sendLog,
  startAdminApp,
  storeSendLogs,
} from "../_admin_helpers.ts";
import { captureLog } from "../_helpers.ts";
import { utf8 } from "../../lib/encoding.ts";
import { recordEventRoutes } from "../../lib/store/delivery/event_routes.ts";
import { saveEvent } from "../../lib/store/delivery/events.ts";
import { readGroupEntry } from "../../lib/store/config/group_set.ts";
import { githubEnv, signIn, startFakeGitHub } from "../fake_github.ts";

const SAM = { id: Number(PEOPLE.superAdmin.userId), login: PEOPLE.superAdmin.login };
const INSTALLATION = { id: 4242, account: { id: SAM.id, login: SAM.login, type: "User" } };
const ORIGIN = "http://localhost:8000";
const HTML = { accept: "text/html" };
const LINKED_DISCORD_USER = "400000000000000009";

/** The action names in the table under "## Audit actions" in docs/admin_api.md. */
async function documentedActions(): Promise<string[]> {
  const text = await Deno.readTextFile(new URL("../../docs/admin_api.md", import.meta.url));
  const section = text.split("\n## Audit actions\n")[1]?.split("\n## ")[0];
  assert.ok(section, "docs/admin_api.md has an Audit actions section");
  return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1]);
}

Deno.test("audit: the docs' table lists exactly the actions of AuditAction", async () => {
  const documented = await documentedActions();
  assert.equal(new Set(documented).size, documented.length, "each action is listed once");
  assert.deepEqual([...documented].sort(), [...AUDIT_ACTIONS].sort());
});

/** A form's CSRF token on a page (whichever name the form gives the field). */
function formToken(html: string): string {
  const token = html.match(/name="csrf(?:_token)?" value="([^"]+)"/)?.[1];
  assert.ok(token, "the page has a form token");
  return token;
}

/** Posts a same-origin form with its CSRF token (under both field names forms use). */
async function postForm(app: AdminApp, path: string, cookie: string, fields: object) {
  const res = await app.t.fetch(path, {
    method: "POST",
    headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields as Record<string, string>),
    redirect: "manual",
  });
  await res.body?.cancel();
  return res.status;
}

async function pageToken(app: AdminApp, path: string, cookie: string): Promise<string> {
  const page = await app.t.fetch(path, { headers: { ...HTML, cookie } });
  assert.equal(page.status, 200, path);
  return formToken(await page.text());
}

async function ok(answer: Promise<{ status: number; body: unknown }>) {
  const { status, body } = await answer;
  assert.ok(status >= 200 && status < 300, `${status}: ${JSON.stringify(body)}`);
  return body as Record<string, string>;
}

Deno.test("audit: every action is recorded by the change that makes it", async () => {
  await using fake = startFakeGitHub();
  fake.installations.set(SAM.id, [INSTALLATION]);
  await using app = await startAdminApp(githubEnv(fake));
  const failed = sendLog(Date.now() - 1000, { status: "failed", deliveryId: "d-failed" });
  let samCookie = "";
  let inviteToken = "";
  const steps: { name: string; makes: AuditAction[]; run: () => Promise<unknown> }[] = [
    {
      name: "a super admin's route save allows its targets",
      makes: ["targets.allow", "routes.replace"],
      run: () =>
        ok(app.call("superAdmin", "PUT", "/admin/api/groups/alpha/routes", {
          body: { routes: [route("alpha", "r1")] },
        })),
    },
    {
      name: "fragments",
      makes: ["fragments.replace"],
      run: () =>
        ok(app.call("owner", "PUT", "/admin/api/groups/alpha/fragments", {
          body: { fragments: [] },
        })),
    },
    {
      name: "a group set that creates, changes and deletes",
      makes: ["group.create", "group.update", "group.delete"],
      run: () =>
        ok(app.call("superAdmin", "PUT", "/admin/api/groups", {
          body: {
            groups: [
              { ...ALPHA, name: "Alpha!" },
              { id: "gamma", name: "Gamma", members: [{ ...PEOPLE.owner, role: "owner" }] },
            ],
          },
        })),
    },
    {
      name: "rename",
      makes: ["group.rename"],
      run: () =>
        ok(app.call("owner", "PUT", "/admin/api/groups/gamma/rename", {
          body: { newId: "delta" },
        })),
    },
    {
      name: "an invite",
      makes: ["invite.create"],
      run: async () => {
        const body = await ok(app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
          body: { role: "viewer" },
        }));
        inviteToken = body.token;
      },
    },
    {
      name: "accepting it",
      makes: ["invite.accept"],
      run: async () => {
        const cookie = await app.cookie("stranger");
        const path = `/admin/invite?token=${encodeURIComponent(inviteToken)}`;
        const csrf = await pageToken(app, path, cookie);
        const status = await postForm(app, "/admin/invite", cookie, {
          token: inviteToken,
          csrf,
          csrf_token: csrf,
        });
        assert.equal(status, 303);
      },
    },
    {
      name: "an invite, revoked",
      makes: ["invite.create", "invite.revoke"],
      run: async () => {
        const { token } = await ok(app.call("owner", "POST", "/admin/api/groups/alpha/invites", {
          body: { role: "admin" },
        }));
        await ok(app.call("owner", "DELETE", `/admin/api/invites/${token}`));
      },
    },
    {
      name: "a webhook secret",
      makes: ["webhook.regenerate"],
      run: () => ok(app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate")),
    },
    {
      name: "a test event sent from the console",
      makes: ["webhook.test"],
      run: () =>
        ok(app.call("admin", "POST", "/admin/api/groups/alpha/test-event", {
          body: { sample: "push" },
        })),
    },
    {
      name: "a replaced webhook secret revoked",
      makes: ["webhook.regenerate", "webhook.revoke"],
      run: async () => {
        await ok(app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate"));
        await ok(app.call("owner", "DELETE", "/admin/api/groups/alpha/webhook/previous"));
      },
    },
    {
      name: "switching the webhook off",
      makes: ["webhook.delete"],
      run: () => ok(app.call("owner", "DELETE", "/admin/api/groups/alpha/webhook")),
    },
    {
      name: "an allowlist replaced",
      makes: ["targets.replace"],
      run: () =>
        ok(app.call("superAdmin", "PUT", "/admin/api/groups/alpha/targets", {
          body: { targets: [{ platform: "discord", channelId: "987654321" }] },
        })),
    },
    {
      name: "a claim from inside a chat",
      makes: ["targets.claim"],
      run: async () => {
        const claimed = await claimTarget(
          app.kv,
          "alpha",
          { platform: "telegram", chatId: "-100555" },
          PEOPLE.owner,
        );
        assert.equal(claimed.ok, true);
      },
    },
    {
      name: "someone changes their own settings",
      makes: ["preferences.update"],
      run: () =>
        ok(app.call("viewer", "PUT", "/admin/api/me/preferences", {
          body: { skipOwnActions: true },
        })),
    },
    {
      name: "a Discord user links to a GitHub account",
      makes: ["link.create"],
      run: async () => {
        const pageUrl = await startChatLink(app.kv, app.t.config, {
          platform: "discord",
          chatUserId: LINKED_DISCORD_USER,
        });
        const res = await completeLinkInBrowser(app.t, pageUrl, fake.issueCode(SAM));
        assert.equal(res.status, 200);
        await res.body?.cancel();
        assert.equal((await getDiscordLink(app.kv, LINKED_DISCORD_USER))?.login, SAM.login);
      },
    },
    {
      name: "unlinking it from the account page",
      makes: ["link.delete"],
      run: async () => {
        const { sessionId } = await createSession(app.kv, {
          userId: String(SAM.id),
          login: SAM.login,
        });
        const cookie = `switchyard_session=${sessionId}`;
        const csrf = await pageToken(app, "/admin/account", cookie);
        const status = await postForm(app, "/admin/account", cookie, {
          csrf_token: csrf,
          intent: "unlink",
          platform: "discord",
          chatUserId: LINKED_DISCORD_USER,
        });
        assert.equal(status, 303);
        assert.equal(await getDiscordLink(app.kv, LINKED_DISCORD_USER), null);
      },
    },
    {
      name: "a failed unit redelivered",
      makes: ["delivery.redeliver"],
      run: async () => {
        await storeSendLogs(app.kv, [failed]);
        await app.kv.set(unitBodyKey(failed.id), { content: "hello" });
        const body = await ok(app.call("owner", "POST", "/admin/api/delivery/d-failed/redeliver"));
        assert.deepEqual(body.requeued, [failed.id]);
      },
    },
    {
      name: "an event sent again through the current routes",
      makes: ["event.resend"],
      run: async () => {
        const saved = await saveEvent(app.kv, {
          provider: "github",
          kind: "push",
          scope: { type: "group", groupId: "alpha" },
          receivedAt: Date.now(),
          headers: {},
          body: utf8('{"ref":"refs/heads/main"}'),
        });
        assert.equal(saved.status, "accepted");
        const eventId = saved.status === "accepted" ? saved.eventId : "";
        const { entry } = await readGroupEntry(app.kv, "alpha");
        await recordEventRoutes(app.kv, [{
          internalId: entry!.internalId,
          record: {
            eventId,
            provider: "github",
            kind: "push",
            groupId: "alpha",
            routeIds: [],
            receivedAt: Date.now(),
          },
        }], 60_000);
        await ok(app.call("owner", "POST", `/admin/api/groups/alpha/events/${eventId}/resend`));
      },
    },
    {
      name: "a bulk replay started, paused, resumed and cancelled",
      makes: ["replay.start", "replay.pause", "replay.resume", "replay.cancel"],
      run: async () => {
        const replay = await ok(app.call("owner", "POST", "/admin/api/groups/alpha/replays", {
          body: { from: Date.now() - 60_000 },
        }));
        for (const action of ["pause", "resume", "cancel"]) {
          await ok(app.call("owner", "POST", `/admin/api/groups/alpha/replays/${replay.id}/state`, {
            body: { action },
          }));
        }
      },
    },
    {
      name: "a channel review reminder added and removed",
      makes: ["targets.allow", "reminder.create", "reminder.delete"],
      run: async () => {
        await allowTarget(app.kv, "alpha");
        const body = await ok(app.call("owner", "POST", "/admin/api/groups/alpha/reminders", {
          body: { days: ["mon"], times: ["09:00"], timeZone: "UTC", target: ROUTE_TARGET },
        }));
        await ok(app.call("owner", "DELETE", `/admin/api/groups/alpha/reminders/${body.id}`));
      },
    },
    {
      name: "signing in on the way to an installation",
      makes: ["session.login"],
      run: async () => {
        const { cookie } = await signIn(
          app.t,
          fake,
          SAM,
          "/auth/github/install?installation_id=4242",
        );
        assert.ok(cookie);
        samCookie = cookie;
      },
    },
    {
      name: "the installation gets its own group",
      makes: ["installation.provision"],
      run: async () => {
        const csrf = await pageToken(app, "/auth/github/install?installation_id=4242", samCookie);
        const status = await postForm(app, "/auth/github/install/bind", samCookie, {
          installation_id: "4242",
          group: "inst-4242",
          csrf,
          csrf_token: csrf,
        });
        assert.equal(status, 303);
      },
    },
    {
      name: "the installation moves to another group",
      makes: ["installation.bind", "installation.unbind"],
      run: async () => {
        const csrf = await pageToken(app, "/auth/github/install?installation_id=4242", samCookie);
        const status = await postForm(app, "/auth/github/install/bind", samCookie, {
          installation_id: "4242",
          group: "alpha",
          csrf,
          csrf_token: csrf,
        });
        assert.equal(status, 303);
      },
    },
    {
      name: "revoking one's own GitHub token",
      makes: ["token.revoke"],
      run: async () => {
        const res = await app.t.fetch(`/auth/token/${SAM.id}`, {
          method: "DELETE",
          headers: { cookie: samCookie, origin: ORIGIN },
        });
        assert.deepEqual(await res.json(), { ok: true });
      },
    },
    {
      name: "a configuration export with the webhook secrets",
      makes: ["config.export"],
      run: () => ok(app.call("superAdmin", "GET", "/admin/api/config/export?secrets=true")),
    },
    {
      name: "a configuration export, then an import of one group",
      makes: ["config.export", "config.import"],
      run: async () => {
        const exported = await ok(app.call("superAdmin", "GET", "/admin/api/config/export"));
        const alpha = (exported.groups as unknown as { id: string }[]).filter((group) =>
          group.id === "alpha"
        );
        await ok(app.call("superAdmin", "POST", "/admin/api/config/import", {
          body: { ...exported, groups: alpha, routes: [], fragments: [], allowedTargets: [] },
        }));
      },
    },
    {
      name: "delivery pauses a target; its owner discards and resumes it in the console",
      makes: ["target.pause", "target.discard", "target.resume"],
      run: async () => {
        const { entry } = await readGroupEntry(app.kv, "alpha");
        const internalId = entry!.internalId;
        const waiting = sendLog(Date.now() - 500, {
          status: "retrying",
          deliveryId: "d-held",
          groupInternalId: internalId,
        });
        await storeSendLogs(app.kv, [waiting]);
        const log = await getSendLogEntry(app.kv, waiting.id);
        const key = targetKeyOf(waiting.target);
        const health = await readTargetHealth(app.kv, internalId, key);
        const paused: TargetHealth = {
          groupId: "alpha",
          target: waiting.target,
          state: "broken",
          failures: 1,
          httpStatus: 403,
          updatedAt: Date.now(),
        };
        const pause = newAuditEntry({
          actor: { userId: "system", login: "system" },
          action: "target.pause",
          groupId: "alpha",
          target: key,
        }, Date.now());
        assert.ok(
          await holdUnit(
            app.kv,
            "lane",
            log!,
            waiting,
            {
              health,
              next: paused,
              audit: { entry: pause, internalId },
            },
            Date.now(),
            60_000,
          ),
        );
        for (const action of ["discard", "resume"]) {
          await ok(app.call("owner", "POST", `/admin/api/groups/alpha/target-health/${action}`, {
            body: { target: key },
          }));
        }
      },
    },
    {
      name: "signing out",
      makes: ["session.logout"],
      run: async () => {
        const csrf = await pageToken(app, "/admin/account", samCookie);
        const status = await postForm(app, "/admin/logout", samCookie, {
          csrf,
          csrf_token: csrf,
        });
        assert.equal(status, 200);
      },
    },
  ];

  let seen = 0;
  for (const step of steps) {
    await step.run();
    const entries = (await listAuditEntries(app.kv, { limit: 1000 })).reverse();
    const made = entries.slice(seen).map((entry) => entry.action);
    seen = entries.length;
    assert.deepEqual(made.sort(), [...step.makes].sort(), step.name);
  }
  assert.deepEqual(
    [...new Set(steps.flatMap((step) => step.makes))].sort(),
    [...AUDIT_ACTIONS].sort(),
    "every action is made by one of the steps",
  );
});

/** `kv`, except that an atomic write recording an audit entry fails as a conflict would. */
function refusingAuditWrites(kv: Kv): Kv {
  const auditRoot = auditPrefix()[0];
  const atomic = () => {
    const op = kv.atomic();
    let audited = false;
    const wrapped: AtomicOperation = new Proxy(op, {
      get(target, property) {
        if (property === "commit") {
          return () => audited ? Promise.resolve({ ok: false }) : target.commit();
        }
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (property === "set" && (args[0] as KvKey)[0] === auditRoot) audited = true;
          const result = value.apply(target, args);
          return result === target ? wrapped : result;
        };
      },
    });
    return wrapped;
  };
  return new Proxy(kv, {
    get(target, property) {
      if (property === "atomic") return atomic;
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The admin app, answering from a KV whose audited writes fail. */
function withFailingAuditedWrites(app: AdminApp) {
  const handler = createApp({
    kv: refusingAuditWrites(app.kv),
    config: app.t.config,
    log: captureLog().log,
  });
  return async (path: string, init: RequestInit) => {
    const res = await handler.fetch(new Request(`http://localhost${path}`, init));
    await res.body?.cancel();
    return res.status;
  };
}

async function auditCount(kv: Kv): Promise<number> {
  return (await listAuditEntries(kv, { limit: 1000 })).length;
}

Deno.test("audit: a webhook change whose write fails leaves neither the change nor an entry", async () => {
  await using app = await startAdminApp();
  await ok(app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate"));
  const before = await getGroupSecret(app.kv, "alpha");
  const entries = await auditCount(app.kv);
  const failing = withFailingAuditedWrites(app);
  const cookie = await app.cookie("owner");
  const headers = { cookie, origin: ORIGIN };

  const regenerate = await failing("/admin/api/groups/alpha/webhook/regenerate", {
    method: "POST",
    headers,
  });
  assert.equal(regenerate, 500);
  assert.deepEqual(await getGroupSecret(app.kv, "alpha"), before, "the old secret stays");
  const disable = await failing("/admin/api/groups/alpha/webhook", { method: "DELETE", headers });
  assert.equal(disable, 500);
  assert.deepEqual(await getGroupSecret(app.kv, "alpha"), before, "the secret is not removed");
  assert.equal(await auditCount(app.kv), entries);
});

Deno.test("audit: an export whose entry cannot be written answers no document", async () => {
  await using app = await startAdminApp();
  await ok(app.call("owner", "POST", "/admin/api/groups/alpha/webhook/regenerate"));
  const entries = await auditCount(app.kv);
  const failing = withFailingAuditedWrites(app);
  const headers = { cookie: await app.cookie("superAdmin") };
  for (const query of ["", "?secrets=true"]) {
    const status = await failing(`/admin/api/config/export${query}`, { headers });
    assert.equal(status, 500, query);
  }
  assert.equal(await auditCount(app.kv), entries);
});

Deno.test("audit: a token revoke whose write fails leaves the token and writes no entry", async () => {
  await using app = await startAdminApp();
  const { userId, login } = PEOPLE.owner;
  await saveToken(app.kv, { userId, login, accessToken: "gho_owner", expiresAt: null });
  const failing = withFailingAuditedWrites(app);
  const status = await failing(`/auth/token/${userId}`, {
    method: "DELETE",
    headers: { cookie: await app.cookie("owner"), origin: ORIGIN },
  });
  assert.equal(status, 500);
  assert.equal((await getToken(app.kv, userId))?.accessToken, "gho_owner");
  assert.equal(await auditCount(app.kv), 0);
});

Deno.test("audit: a sign-out or redelivery whose write fails changes nothing and writes no entry", async () => {
  await using app = await startAdminApp();
  const failed = sendLog(Date.now() - 1000, { status: "failed", deliveryId: "d-failed" });
  await storeSendLogs(app.kv, [failed]);
  await app.kv.set(unitBodyKey(failed.id), { content: "hello" });
  const cookie = await app.cookie("owner");
  const csrf = await pageToken(app, "/admin/account", cookie);
  const entries = await auditCount(app.kv);
  const failing = withFailingAuditedWrites(app);

  const redeliver = await failing("/admin/api/delivery/d-failed/redeliver", {
    method: "POST",
    headers: { cookie, origin: ORIGIN },
  });
  assert.equal(redeliver, 500);
  assert.equal((await getSendLog(app.kv, failed.id))?.status, "failed");

  const signOut = await failing("/admin/logout", {
    method: "POST",
    headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, csrf_token: csrf }),
  });
  assert.equal(signOut, 500);
  assert.ok(await getSession(app.kv, cookie.split("=")[1]), "the session stays");
  assert.equal(await auditCount(app.kv), entries);
});
