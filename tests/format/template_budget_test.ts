/**
 * A template's work is bounded by the characters it touches, not only by its steps: every
 * helper and every written value is charged for the text it reads, serialization stops at the
 * output cap, and parsing is linear in the template. A hostile template over a huge payload
 * string stops with a budget error within a fraction of a second, in the preview and in
 * delivery (which then sends the built-in message and logs why).
 */
import assert from "node:assert/strict";
import { CHARS_PER_STEP, EvaluationBudget } from "../../lib/jsonpath/budget.ts";
import { formatEvent } from "../../lib/format/mod.ts";
import type { Message } from "../../lib/format/message.ts";
import { truncate } from "../../lib/format/text.ts";
import { HELPER_NAMES, helperNamed } from "../../lib/template/helpers.ts";
import {
  parseTemplate,
  renderTemplateMessage,
  templateError,
  TemplateRenderError,
} from "../../lib/template/mod.ts";
import { TEMPLATE_BODY_MAX_LENGTH } from "../../lib/limits.ts";
import type { Route } from "../../lib/types.ts";
import { startFakeDiscord } from "../../testing/fake_chat.ts";
import { startAdminApp } from "../_admin_helpers.ts";
import { runWorker, settled, storeRoutes } from "../_delivery_helpers.ts";
import { startTestApp } from "../_helpers.ts";
import { fixture, githubRequest, jsonBytes, SECRETS } from "../_ingest_helpers.ts";

const EVENT = { kind: "custom", provider: "custom" };

const BUILT_IN: Message = {
  title: "Built-in title",
  description: [{ kind: "line", spans: [{ kind: "text", text: "built-in text" }] }],
};

/** Two nested loops of 100 rounds, each calling length, truncate and join on `$.big`. */
const HOSTILE = [
  "{{#each $.rounds}}{{#each $.rounds}}",
  "{{#if (eq (length $.big) 0)}}{{/if}}",
  '{{#if (eq (truncate $.big 4000) "")}}{{/if}}',
  '{{#if (eq (join $.big) "")}}{{/if}}',
  '{{#if (eq (join $.wrapped) "")}}{{/if}}',
  "{{/each}}{{/each}}",
].join("");

const ROUNDS = Array(100).fill(0);

/** Steps one helper call spends on its arguments. */
function stepsOf(name: string, args: unknown[], max = 1_000_000): number {
  const budget = new EvaluationBudget(10_000_000);
  helperNamed(name)!.run(args, { budget, max });
  return budget.spent;
}

Deno.test("template budget: each helper is charged for the characters it touches", () => {
  const length = 64_000;
  const long = "é".repeat(length);
  const short = "é".repeat(10);
  const charge = length / CHARS_PER_STEP;
  const url = "https://example.com/" + "a".repeat(2000);
  const cases: Record<string, (text: string) => unknown[]> = {
    truncate: (text) => [text, 4096],
    join: (text) => [[text, text], ", "],
    length: (text) => [text],
    firstline: (text) => [text],
    eq: (text) => [text, text.slice(0, -1) + "x"],
    ne: (text) => [text, text.slice(0, -1) + "x"],
    link: (text) => [url, text],
    code: (text) => [text],
    bold: (text) => [text],
    italic: (text) => [text],
    quote: (text) => [text],
  };
  for (const [name, args] of Object.entries(cases)) {
    const small = stepsOf(name, args(short));
    const large = stepsOf(name, args(long));
    const expected = name === "truncate" ? 4096 / CHARS_PER_STEP : charge;
    assert.ok(large - small >= expected, `${name}: ${small} steps, then ${large}`);
  }
  assert.equal(stepsOf("link", [url]) >= 2000 / CHARS_PER_STEP, true, "link reads its URL");
  assert.equal(
    stepsOf("default", [long, "x"]),
    stepsOf("default", [short, "x"]),
    "default reads nothing",
  );
  const wide = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]));
  assert.ok(stepsOf("length", [wide]) >= 5_000, "length of an object pays for its keys");
  assert.ok(stepsOf("join", [{ key: long }]) >= charge, "serialized strings are charged");
  assert.ok(stepsOf("join", [{ [long]: 1 }]) >= charge, "serialized keys are charged");
  assert.deepEqual(Object.keys(cases).sort(), HELPER_NAMES.filter((n) => n !== "default").sort());
});

Deno.test("template budget: truncate, length, join and JSON give what they gave, reading no more than they write", () => {
  const samples = ["", "short", "  spaced   out  ", "a😀b😀c".repeat(20), "x ".repeat(500)];
  for (const sample of samples) {
    for (const count of [1, 2, 3, 5, 10, 41, 4096]) {
      const budget = new EvaluationBudget();
      const ours = helperNamed("truncate")!.run([sample, count], { budget, max: 5000 });
      assert.equal(ours, truncate(sample, count), `${JSON.stringify(sample)} ${count}`);
    }
  }
  const context = { budget: new EvaluationBudget(), max: 100 };
  for (
    const [sample, points] of [["a😀b", 3], ["\uD800x", 2], ["x\uD800", 2], ["😀😀", 2]] as const
  ) {
    assert.equal(helperNamed("length")!.run([sample], context), points, sample);
  }
  const huge = "a".repeat(1_900_000);
  const budget = new EvaluationBudget(1_000);
  const text = helperNamed("join")!.run([{ big: huge, list: [huge] }], { budget, max: 100 });
  assert.equal(text, `{"big":"${"a".repeat(91)}…`);
  assert.ok(budget.spent < 100, `spent ${budget.spent}`);
});

Deno.test("template budget: parsing is linear in the template", () => {
  const source = " ".repeat(5_000) + "x\n" + "{{!}}\n".repeat(490);
  assert.ok(source.length <= TEMPLATE_BODY_MAX_LENGTH);
  const started = performance.now();
  assert.equal(templateError({ body: source }), null);
  assert.equal(parseTemplate(source).length, 1);
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 1_000, `parsing took ${elapsed} ms`);
});

Deno.test("template budget: the hostile template over a 1.9 MB string stops within the budget", () => {
  const big = "a".repeat(1_900_000);
  const payload = { big, wrapped: [big, { big }], rounds: ROUNDS };
  const started = performance.now();
  assert.throws(
    () => renderTemplateMessage({ body: HOSTILE }, { ...EVENT, payload }, BUILT_IN),
    (error: unknown) => {
      assert.ok(error instanceof TemplateRenderError);
      assert.match(error.message, /^body: step budget exceeded \(more than 100000 steps/);
      return true;
    },
  );
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 1_000, `the render took ${elapsed} ms`);
});

Deno.test("preview: the hostile template answers a template error quickly while /health answers", async () => {
  await using app = await startAdminApp();
  const payload = { big: "a".repeat(1_900_000), wrapped: ["b"], rounds: ROUNDS };
  const health = async () => {
    const started = performance.now();
    const res = await app.t.fetch("/health");
    await res.body?.cancel();
    return { status: res.status, elapsed: performance.now() - started };
  };
  const started = performance.now();
  const [preview, probe] = await Promise.all([
    app.call("viewer", "POST", "/admin/api/preview", {
      body: { payload, template: { body: HOSTILE } },
    }),
    health(),
  ]);
  const elapsed = performance.now() - started;
  assert.equal(preview.status, 200);
  assert.match(
    preview.body.templateError,
    /^template body: step budget exceeded \(more than 100000 steps for one event\)$/,
  );
  assert.equal(probe.status, 200);
  assert.ok(elapsed < 5_000, `preview and health took ${elapsed} ms`);
  const after = await health();
  assert.equal(after.status, 200);
  assert.ok(after.elapsed < 1_000, `health took ${after.elapsed} ms`);
});

Deno.test("delivery: the hostile template on a route with a 1 MB event falls back to the built-in message and logs why", async () => {
  await using discord = startFakeDiscord();
  await using app = await startTestApp({
    GITHUB_WEBHOOK_SECRET: SECRETS.github[0],
    DISCORD_BOT_TOKEN: "test-bot-token",
    DISCORD_API_URL: discord.url,
  });
  const route: Route = {
    id: "hostile",
    name: "hostile",
    enabled: true,
    groupId: "acme",
    filters: [{ type: "event", value: "pull_request.opened" }],
    targets: [{ platform: "discord", channelId: "5555" }],
    template: {
      body: HOSTILE.replaceAll("$.big", "$.pull_request.body").replaceAll(
        "$.wrapped",
        "$.pull_request.labels",
      ),
    },
  };
  await storeRoutes(app.kv, [route]);
  await using _worker = runWorker(app.kv, app.config);

  const payload = JSON.parse(
    new TextDecoder().decode(await fixture("pull_request/opened.payload.json")),
  );
  payload.rounds = ROUNDS;
  const size = jsonBytes(payload).byteLength;
  payload.pull_request.body = "a".repeat(1_000_000 - size);
  const bytes = jsonBytes(payload);
  assert.ok(bytes.byteLength > 990_000 && bytes.byteLength <= 1024 * 1024);

  let slowest = 0;
  let probing = true;
  const probes = (async () => {
    while (probing) {
      const started = performance.now();
      const res = await app.app.fetch(new Request("http://localhost/health"));
      await res.body?.cancel();
      assert.equal(res.status, 200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const response = await app.app.fetch(await githubRequest(bytes, { delivery: "hostile-1mb" }));
  assert.equal(response.status, 200);
  const logs = await settled(app.kv, "hostile-1mb", 1);
  probing = false;
  await probes;

  const log = logs[0];
  assert.equal(log.status, "ok", JSON.stringify(log));
  assert.match(
    log.templateError ?? "",
    /^template body: step budget exceeded \(more than 100000 steps for one event\)$/,
  );
  const builtIn = formatEvent({
    id: "x",
    provider: "github",
    kind: "pull_request",
    action: "opened",
    scope: { type: "global" },
    receivedAt: 0,
    headers: {},
    payload,
  })!;
  const posted = discord.received.find((message) => message.chat === "5555")!;
  assert.equal((posted.body.embeds as { title: string }[])[0].title, builtIn.title);
  assert.ok(slowest < 1_000, `the slowest /health took ${slowest} ms`);
});
