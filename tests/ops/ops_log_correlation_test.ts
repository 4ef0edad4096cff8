/** One event can be followed through the logs: its id is on every line from ingress to send. */
import assert from "node:assert/strict";
import { createApp } from "../../lib/app.ts";
import { utf8 } from "../../lib/encoding.ts";
import { signCustomBody } from "../../lib/providers/custom.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { captureLog } from "../_helpers.ts";
import {
  customRoute,
  deliveryConfig,
  runWorker,
  settled,
  storeRoutes,
} from "../_delivery_helpers.ts";

Deno.test("an event's id is on its ingress, fan-out and send log lines", async () => {
  await using discord = startFakeDiscord();
  const kv = await Deno.openKv(":memory:");
  try {
    const config = deliveryConfig({ discord }, { CUSTOM_WEBHOOK_SECRET: "custom-secret" });
    const target = { platform: "discord" as const, channelId: "111" };
    const other = { platform: "discord" as const, channelId: "222" };
    await storeRoutes(kv, [customRoute("r1", [target, other])]);
    const { log, lines: appLines } = captureLog();
    const app = createApp({ kv, config, log });
    await using worker = runWorker(kv, config);

    const body = utf8(JSON.stringify({ message: { title: "Deployed", text: "v1.2" } }));
    const res = await app.fetch(
      new Request("http://localhost/webhook", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-switchyard-signature": await signCustomBody("custom-secret", body),
        },
        body,
      }),
    );
    assert.equal(res.status, 200);
    const accepted = appLines.find((line) => line.message === "webhook accepted");
    assert.ok(accepted, "the ingress logs the accepted event");
    const eventId = accepted.eventId as string;
    assert.match(eventId, /^[0-9A-Z]{26}$/);
    assert.equal(typeof accepted.requestId, "string", "the request id ties it to the request line");

    await settled(kv, eventId, 2);
    await worker.stop();
    const ofEvent = worker.lines.filter((line) => line.eventId === eventId);
    const messages = ofEvent.map((line) => line.message);
    assert.ok(messages.includes("event routed"), messages.join(", "));
    assert.equal(messages.filter((message) => message === "delivery sent").length, 2);
    for (const line of ofEvent.filter((l) => l.message === "delivery sent")) {
      assert.equal(line.status, "ok");
      assert.ok(String(line.logId).startsWith(eventId));
    }
  } finally {
    kv.close();
  }
});
