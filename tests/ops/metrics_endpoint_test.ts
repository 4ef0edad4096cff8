/** `GET /metrics`: off without METRICS_TOKEN, bearer-protected, parsed as Prometheus text. */
import assert from "node:assert/strict";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { escapeLabelValue, writePrometheusText } from "../../lib/ops/prometheus.ts";
import { sendLog, startAdminApp, storeSendLogs } from "../_admin_helpers.ts";
import { githubRequest, jsonBytes } from "../_ingest_helpers.ts";

const TOKEN = "metrics-token-0123456789";

interface Parsed {
  name: string;
  type: string;
  help: string;
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string> }[];
}

function family(families: Parsed[], name: string): Parsed {
  const found = families.find((f) => f.name === name);
  assert.ok(found, `metric ${name} is missing`);
  return found;
}

function valueOf(families: Parsed[], name: string, labels: Record<string, string> = {}): number {
  const metric = family(families, name).metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
  );
  assert.ok(metric, `${name} ${JSON.stringify(labels)} is missing`);
  return Number(metric.value);
}

Deno.test("/metrics answers 404 when METRICS_TOKEN is not set", async () => {
  await using admin = await startAdminApp();
  const res = await admin.t.fetch("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 404);
  assert.equal(typeof (await res.json()).error, "string");
});

Deno.test("/metrics refuses a missing or wrong bearer token with 401", async () => {
  await using admin = await startAdminApp({ METRICS_TOKEN: TOKEN });
  for (
    const authorization of [undefined, "Bearer wrong-token-0123456789", TOKEN, `Basic ${TOKEN}`]
  ) {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    const res = await admin.t.fetch("/metrics", { headers });
    assert.equal(res.status, 401, String(authorization));
    assert.equal((await res.json()).error, "Unauthorized");
  }
});

Deno.test("/metrics is scraped as Prometheus text with ingest, delivery, queue and latency figures", async () => {
  await using admin = await startAdminApp({
    METRICS_TOKEN: TOKEN,
    GITHUB_WEBHOOK_SECRET: "github-secret-current",
  });
  const push = jsonBytes({ ref: "refs/heads/main", repository: { full_name: "o/r" } });
  for (const delivery of ["d-1", "d-1", "d-2"]) {
    const request = await githubRequest(push, { event: "push", delivery });
    assert.equal((await admin.t.app.fetch(request)).status, 200);
  }
  const refused = await githubRequest(push, { event: "push", secret: "wrong" });
  assert.equal((await admin.t.app.fetch(refused)).status, 401);
  const now = Date.now();
  await storeSendLogs(admin.kv, [
    sendLog(now - 5_000, { status: "ok" }),
    sendLog(now - 4_000, { status: "dead", platform: "telegram" }),
    sendLog(now - 60_000, { status: "retrying", platform: "telegram" }),
  ]);

  const res = await admin.t.fetch("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  const text = await res.text();
  for (const line of text.trimEnd().split("\n")) {
    assert.match(line, /^(# (HELP|TYPE) \w+ .+|\w+(\{.*\})? \S+)$/, line);
  }
  const families = parsePrometheusTextFormat(text) as Parsed[];
  const ingest = { provider: "github" };
  assert.equal(
    valueOf(families, "switchyard_ingest_events_total", { ...ingest, outcome: "accepted" }),
    2,
  );
  assert.equal(
    valueOf(families, "switchyard_ingest_events_total", { ...ingest, outcome: "duplicate" }),
    1,
  );
  assert.equal(valueOf(families, "switchyard_ingest_refused_total", { status: "401" }), 1);
  assert.equal(
    valueOf(families, "switchyard_deliveries_total", { platform: "discord", status: "ok" }),
    1,
  );
  assert.equal(
    valueOf(families, "switchyard_deliveries_total", { platform: "telegram", status: "dead" }),
    1,
  );
  assert.equal(valueOf(families, "switchyard_delivery_retries_total", { platform: "telegram" }), 1);
  assert.equal(valueOf(families, "switchyard_queue_depth", { stage: "delivery" }), 1);
  assert.equal(valueOf(families, "switchyard_queue_depth", { stage: "fan_out" }), 2);
  assert.ok(valueOf(families, "switchyard_queue_oldest_pending_age_seconds") >= 60);
  const latency = family(families, "switchyard_delivery_latency_seconds");
  assert.equal(latency.type, "HISTOGRAM");
  assert.equal(latency.metrics[0].buckets?.["+Inf"], "1");
  for (const f of families) assert.ok(f.help.length > 0, `${f.name} has help`);
});

Deno.test("label values and help texts are escaped", () => {
  const hostile = 'a"b\\c\nd} x 1';
  assert.equal(escapeLabelValue(hostile), 'a\\"b\\\\c\\nd} x 1');
  const text = writePrometheusText([{
    name: "demo_total",
    help: "line\nbreak \\ slash",
    type: "counter",
    samples: [{ labels: [["kind", hostile]], value: 2 }],
  }]);
  assert.equal(text.split("\n").length, 4);
  const [parsed] = parsePrometheusTextFormat(text) as Parsed[];
  assert.equal(parsed.metrics[0].labels?.kind, hostile);
  assert.equal(parsed.metrics[0].value, "2");
});

Deno.test("/metrics answers 404 to every method when METRICS_TOKEN is not set, and 405 to other methods when it is", async () => {
  await using off = await startAdminApp();
  for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
    const res = await off.t.fetch("/metrics", { method });
    assert.equal(res.status, 404, method);
    if (method !== "HEAD") assert.equal(typeof (await res.json()).error, "string", method);
    else await res.body?.cancel();
  }
  await using on = await startAdminApp({ METRICS_TOKEN: TOKEN });
  const post = await on.t.fetch("/metrics", {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, origin: "http://localhost" },
  });
  assert.equal(post.status, 405);
  await post.body?.cancel();
  const head = await on.t.fetch("/metrics", {
    method: "HEAD",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(head.status, 200);
  await head.body?.cancel();
});
