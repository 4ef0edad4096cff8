/**
 * A webhook payload nested 400,000 levels deep (accepted: JSON parsing is not recursive) is
 * formatted, rendered and matched in the worker without a stack overflow: formatting falls
 * back or skips what it cannot read, matching a deep path runs out of its step budget (the
 * route is "not evaluated"), and neither throws a RangeError that would fail the job forever.
 */
import assert from "node:assert/strict";
import { renderDiscord } from "../../lib/format/discord.ts";
import { formatEvent } from "../../lib/format/mod.ts";
import { renderTelegram } from "../../lib/format/telegram.ts";
import { compile, match } from "../../lib/routing/compile.ts";
import { FilterEvaluationError } from "../../lib/jsonpath/budget.ts";
import type { FieldFilter } from "../../lib/types.ts";
import { eventOf } from "../_format_helpers.ts";

const LEVELS = 400_000;
const deepList = JSON.parse("[".repeat(LEVELS) + "]".repeat(LEVELS));
const deepObject = JSON.parse('{"a":'.repeat(LEVELS) + "1" + "}".repeat(LEVELS));

Deno.test("a 400,000-deep payload formats and renders for every kind of formatter", () => {
  const cases: [string, Record<string, unknown>, "github" | "gitea" | "custom"][] = [
    ["custom", { x: deepList, y: deepObject }, "custom"],
    ["custom", { message: { title: "t", text: "b", fields: deepList }, x: deepObject }, "custom"],
    ["push", { ref: "refs/heads/main", commits: deepList, repository: deepObject }, "github"],
    ["issues", { action: "opened", issue: { title: deepObject, labels: deepList } }, "github"],
    [
      "pull_request",
      { action: "opened", pull_request: { labels: deepList, body: deepObject } },
      "github",
    ],
    ["workflow_run", { action: "completed", workflow_run: { pull_requests: deepList } }, "github"],
    ["unknown_kind", { x: deepList, y: deepObject }, "github"],
    ["push", { commits: deepList, repository: deepObject }, "gitea"],
  ];
  for (const [kind, payload, provider] of cases) {
    const message = formatEvent(eventOf(kind, payload, provider));
    assert.ok(message, `${provider} ${kind}`);
    assert.equal(renderDiscord(message).embeds.length, 1, `${provider} ${kind}`);
    assert.ok(renderTelegram(message).text.length > 0, `${provider} ${kind}`);
  }
});

Deno.test("matching a 400,000-deep payload answers or runs out of budget, never overflows", () => {
  const payload = { x: deepList, y: deepObject };
  const outcomes: string[] = [];
  for (const path of ["$.x[*]", "$.y.a.a", "$..a", "$.y..a", "$..[0]"]) {
    const filter: FieldFilter = { type: "field", path, op: "exists" };
    try {
      outcomes.push(`${path}: ${match(compile(filter), { kind: "custom", payload })}`);
    } catch (error) {
      assert.ok(error instanceof FilterEvaluationError, `${path}: ${error}`);
      outcomes.push(`${path}: over budget`);
    }
  }
  assert.deepEqual(outcomes, [
    "$.x[*]: true",
    "$.y.a.a: true",
    "$..a: over budget",
    "$.y..a: over budget",
    "$..[0]: over budget",
  ]);
});
