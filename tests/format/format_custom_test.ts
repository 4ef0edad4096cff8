/** Custom events: the sender's `message` object, or a summary of the payload. */
import assert from "node:assert/strict";
import { COLORS } from "../../lib/format/colors.ts";
import { SUMMARY_ENTRIES } from "../../lib/format/custom.ts";
import { descriptionText, fieldText, format, RECEIVED_AT } from "../_format_helpers.ts";

Deno.test("custom with a message: title, text, url, colour and fields as given", () => {
  const message = format("custom", {
    message: {
      title: "Backup finished",
      text: "Nightly backup of **db-1** done.\nSize: 3 GB",
      url: "https://backups.example.org/runs/42",
      color: "#00ff00",
      fields: [
        { name: "Host", value: "db-1", inline: true },
        { name: "Duration", value: 512 },
        { name: "broken" },
        "not a field",
      ],
    },
  }, "custom");
  assert.equal(message.title, "Backup finished");
  assert.equal(message.url, "https://backups.example.org/runs/42");
  assert.equal(message.color, 0x00ff00);
  assert.equal(descriptionText(message), "Nightly backup of **db-1** done.\nSize: 3 GB");
  assert.deepEqual(message.fields?.map((item) => [item.name, item.inline]), [
    ["Host", true],
    ["Duration", false],
  ]);
  assert.equal(fieldText(message, "Duration"), "512");
  assert.deepEqual(message.footer, { provider: "custom" });
  assert.equal(message.timestamp, new Date(RECEIVED_AT).toISOString());
});

Deno.test("custom message colours: palette names, hex without #, numbers; junk falls back to grey", () => {
  const colorOf = (color: unknown) =>
    format("custom", { message: { title: "t", color } }, "custom").color;
  assert.equal(colorOf("red"), COLORS.red);
  assert.equal(colorOf("GREEN"), COLORS.green);
  assert.equal(colorOf("1f6feb"), 0x1f6feb);
  assert.equal(colorOf(255), 255);
  assert.equal(colorOf("#12345"), COLORS.grey);
  assert.equal(colorOf(-1), COLORS.grey);
  assert.equal(colorOf(0x1000000), COLORS.grey);
  for (const inherited of ["constructor", "toString", "valueOf", "__proto__"]) {
    assert.equal(colorOf(inherited), COLORS.grey, inherited);
  }
});

Deno.test("custom message: unsafe or missing parts are left out", () => {
  const message = format("custom", {
    message: { url: "javascript:alert(1)", text: "", fields: "nope" },
  }, "custom");
  assert.equal(message.title, "Custom event");
  assert.equal(message.url, undefined);
  assert.equal(message.description, undefined);
  assert.equal(message.fields, undefined);
});

Deno.test("custom without a message: a readable summary of the payload", () => {
  const message = format("custom", {
    event: "deploy.finished",
    url: "https://deploy.example.org/7",
    service: { name: "api", region: "eu-west-1", meta: { owner: { team: "core" } } },
    ok: true,
    attempts: 2,
    tags: ["blue", "green"],
    steps: [{ name: "build" }, { name: "ship" }],
    note: null,
  }, "custom");
  assert.equal(message.title, "deploy.finished");
  assert.equal(message.url, "https://deploy.example.org/7");
  assert.deepEqual(descriptionText(message).split("\n"), [
    "event: deploy.finished",
    "url: https://deploy.example.org/7",
    "service.name: api",
    "service.region: eu-west-1",
    "service.meta.owner: {…}",
    "ok: true",
    "attempts: 2",
    "tags: blue, green",
    "steps: 2 items",
    "note: null",
  ]);
});

Deno.test("custom summary: long values are cut and extra entries counted", () => {
  const payload: Record<string, unknown> = { long: "x".repeat(1000) };
  for (let index = 0; index < 30; index++) payload[`key${index}`] = index;
  const message = format("custom", payload, "custom");
  const lines = descriptionText(message).split("\n");
  assert.equal(message.title, "Custom event");
  assert.equal(lines.length, SUMMARY_ENTRIES + 1);
  assert.ok(lines[0].length <= "long: ".length + 200);
  assert.ok(lines[0].endsWith("…"));
  assert.equal(lines.at(-1), `… and ${31 - SUMMARY_ENTRIES} more`);
});

Deno.test("custom with an empty payload still says something", () => {
  const message = format("custom", {}, "custom");
  assert.equal(message.title, "Custom event");
  assert.equal(message.description, undefined);
});
