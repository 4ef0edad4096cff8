/**
 * Quiet hours: during a route's quiet hours (in its time zone) non-urgent events are held and
 * posted as one digest when the hours end; urgent ones go at once. Driven by an injected clock.
 * Also the quiet period arithmetic and the validation of the noise options.
 */
import assert from "node:assert/strict";
import { quietPeriodAt } from "../../lib/delivery/quiet_hours.ts";
import { formatZodError, routeSchema } from "../../lib/model/schema.ts";
import { startFakeDiscord, startFakeTelegram } from "../../testing/fake_chat.ts";
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import {
  acceptCustom,
  customRoute,
  deliveryConfig,
  discordTitles,
  runWorker,
  settled,
  storeRoutes,
} from "../_delivery_helpers.ts";
import { openTestKv } from "../../testing/test_store.ts";

const NIGHT = { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" };

Deno.test("quiet hours: the period an instant falls in, across midnight and within a day", () => {
  // 22:30 in Berlin (winter, UTC+1) on 15 January 2026.
  const late = Date.parse("2026-01-15T21:30:10Z");
  assert.deepEqual(quietPeriodAt(NIGHT, late), {
    opensAt: Date.parse("2026-01-15T21:00:00Z"),
    closesAt: Date.parse("2026-01-16T06:00:00Z"),
  });
  const early = Date.parse("2026-01-16T05:59:00Z");
  assert.deepEqual(quietPeriodAt(NIGHT, early), quietPeriodAt(NIGHT, late));
  assert.equal(quietPeriodAt(NIGHT, Date.parse("2026-01-16T06:00:00Z")), null, "07:00 ends it");
  assert.equal(quietPeriodAt(NIGHT, Date.parse("2026-01-15T12:00:00Z")), null);
  const lunch = { start: "12:00", end: "13:30", timeZone: "Asia/Tokyo" };
  assert.deepEqual(quietPeriodAt(lunch, Date.parse("2026-07-01T03:15:00Z")), {
    opensAt: Date.parse("2026-07-01T03:00:00Z"),
    closesAt: Date.parse("2026-07-01T04:30:00Z"),
  });
  assert.equal(quietPeriodAt(lunch, Date.parse("2026-07-01T04:30:00Z")), null);
  // Summer time in Berlin is UTC+2.
  assert.deepEqual(
    quietPeriodAt(NIGHT, Date.parse("2026-07-01T20:00:00Z"))?.opensAt,
    Date.parse("2026-07-01T20:00:00Z"),
  );
});

Deno.test("route options: digest, threads and quietHours are validated", () => {
  const base = customRoute("r", [{ platform: "discord", channelId: "100" }]);
  const problem = (extra: Record<string, unknown>) => {
    const result = routeSchema.safeParse({ ...base, ...extra });
    return result.success ? null : formatZodError(result.error);
  };
  assert.equal(problem({ digest: { windowSeconds: 60, threshold: 5 }, threads: true }), null);
  assert.equal(
    problem({ quietHours: { ...NIGHT, urgent: { type: "event", value: "push" } } }),
    null,
  );
  assert.equal(
    problem({ digest: { windowSeconds: 0, threshold: 5 } }),
    "digest.windowSeconds: at least 1 second",
  );
  assert.equal(
    problem({ digest: { windowSeconds: 60, threshold: -1 } }),
    "digest.threshold: at least 1",
  );
  assert.equal(
    problem({ digest: { windowSeconds: 60, threshold: 0 } }),
    "digest.threshold: at least 1",
  );
  assert.equal(problem({ digest: { windowSeconds: 60 } }), "digest.threshold: required");
  assert.equal(problem({ threads: "yes" }), "threads: expected boolean");
  assert.equal(
    problem({ quietHours: { ...NIGHT, timeZone: "Mars/Olympus" } }),
    "quietHours.timeZone: an IANA time zone such as Europe/Berlin",
  );
  assert.equal(
    problem({ quietHours: { ...NIGHT, timeZone: "../../etc" } }),
    "quietHours.timeZone: an IANA time zone such as Europe/Berlin",
  );
  assert.equal(
    problem({ quietHours: { ...NIGHT, start: "24:00" } }),
    "quietHours.start: a time of day as HH:MM (00:00-23:59)",
  );
  assert.equal(
    problem({ quietHours: { ...NIGHT, end: "22:00" } }),
    "quietHours.end: must differ from start",
  );
  assert.match(
    problem({
      quietHours: { ...NIGHT, urgent: { type: "field", path: "a", op: "regex", value: "(" } },
    })!,
    /^quietHours\.urgent/,
  );
});

Deno.test("quiet hours: non-urgent events are held and posted as one digest when the hours end", async () => {
  await using kv = await openTestKv();
  await using discord = startFakeDiscord();
  await using telegram = startFakeTelegram();
  await storeRoutes(kv, [{
    ...customRoute("night", [
      { platform: "discord", channelId: "100" },
      { platform: "telegram", chatId: "-100200" },
    ]),
    name: "Night watch",
    quietHours: {
      ...NIGHT,
      urgent: { type: "field", path: "message.title", op: "startsWith", value: "URGENT" },
    },
  }]);
  const realStart = Date.now();
  let clockStart = Date.parse("2026-01-15T21:30:00Z"); // 22:30 in Berlin
  await using running = runWorker(kv, deliveryConfig({ discord, telegram }), {
    now: () => clockStart + (Date.now() - realStart),
  });

  const held: SendLog[] = [];
  for (const title of ["Nightly build", "Backup done"]) {
    held.push(...await settled(kv, await acceptCustom(kv, title), 2));
  }
  await settled(kv, await acceptCustom(kv, "URGENT database down"), 2);
  assert.deepEqual(discordTitles(discord, "100"), ["URGENT database down"]);
  assert.equal(telegram.received.length, 1);
  assert.ok(held.every((log) => log.status === "ok" && log.httpStatus === 202 && log.digestId));
  const digestIds = [...new Set(held.map((log) => log.digestId!))];
  assert.equal(digestIds.length, 2, "one digest per target");

  const close = (digestId: string) =>
    running.worker.handlers.digest_close({ type: "digest_close", digestId });
  for (const id of digestIds) await close(id);
  assert.equal(discord.received.length, 1, "nothing is posted before the hours end");

  clockStart = Date.parse("2026-01-16T06:01:00Z") - (Date.now() - realStart); // 07:01 in Berlin
  for (const id of [...digestIds, ...digestIds]) await close(id);
  assert.deepEqual(discordTitles(discord, "100"), [
    "URGENT database down",
    "2 events during quiet hours: Night watch",
  ]);
  const embed = (discord.received[1].body.embeds as { description: string }[])[0];
  assert.match(embed.description, /Nightly build\n• Backup done/);
  assert.equal(telegram.received.length, 2);
  assert.match(String(telegram.received[1].body.text), /2 events during quiet hours: Night watch/);
  assert.match(String(telegram.received[1].body.text), /Nightly build/);

  await settled(kv, await acceptCustom(kv, "Morning deploy"), 2);
  assert.equal(discordTitles(discord, "100").at(-1), "Morning deploy", "after the hours, as usual");
});
