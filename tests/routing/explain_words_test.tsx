/**
 * Explanations in plain words: the sentence a route's verdict gives (what the route wants, what
 * the event has) and the names of the explanation's nodes, as the route editor names them.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { VerdictSummary } from "../../components/routes/VerdictSummary.tsx";
import { fromFilterNode, NodeIds } from "../../lib/console/filter_tree.ts";
import { checkTree, explainTree } from "../../lib/console/tree_check.ts";
import { explain } from "../../lib/routing/explain.ts";
import { nodeLine, nodeName, whyMatched, whyNot } from "../../lib/routing/explain_words.ts";
import type { FilterNode } from "../../lib/types.ts";

const BUG_ROUTE: FilterNode = {
  all: [
    { type: "event", value: "pull_request.opened" },
    { type: "field", path: "$.pull_request.labels[*].name", op: "eq", value: "bug" },
  ],
};

function pullRequest(...labels: string[]) {
  return {
    kind: "pull_request",
    action: "opened",
    payload: { pull_request: { labels: labels.map((name) => ({ name })), base: { ref: "dev" } } },
  };
}

Deno.test("plain words: a label filter that does not match names the label wanted and the one found", () => {
  const explanation = explain(BUG_ROUTE, pullRequest("docs"));
  assert.equal(explanation.matched, false);
  assert.equal(whyNot(explanation), "the route wants label `bug`; this event has `docs`");
  assert.equal(
    whyNot(explain(BUG_ROUTE, pullRequest())),
    "the route wants label `bug`; this event has no label",
  );
});

Deno.test("plain words: a route that matches says what matched", () => {
  const explanation = explain(BUG_ROUTE, pullRequest("bug"));
  assert.equal(explanation.matched, true);
  assert.equal(
    whyMatched(explanation),
    "the event is `pull_request.opened`; it has label `bug`",
  );
});

Deno.test("plain words: an event filter names the event it wants and the event it saw", () => {
  const explanation = explain({ type: "event", value: ["push", "release"] }, pullRequest("bug"));
  assert.equal(
    whyNot(explanation),
    "the route wants `push` or `release` events; this is `pull_request.opened`",
  );
  assert.equal(nodeName(explanation), "Event push or release");
  assert.equal(explanation.reason, "wants push or release; this event is pull_request.opened");
});

Deno.test("plain words: other operators, paths without a name, negations and groups", () => {
  const event = pullRequest("docs");
  const base = explain({ type: "field", path: "pull_request.base.ref", value: "main" }, event);
  assert.equal(whyNot(base), "the route wants base branch `main`; this event has `dev`");
  const prefix = explain(
    { type: "field", path: "pull_request.base.ref", op: "startsWith", value: "release/" },
    event,
  );
  assert.equal(
    whyNot(prefix),
    "the route wants the base branch to start with `release/`; this event has `dev`",
  );
  const missing = explain({ type: "field", path: "pull_request.draft", op: "exists" }, event);
  assert.equal(
    whyNot(missing),
    "the route wants `pull_request.draft` to be present; this event has no `pull_request.draft`",
  );
  const excluded = explain(
    { not: { type: "field", path: "pull_request.labels[*].name", value: "docs" } },
    event,
  );
  assert.equal(whyNot(excluded), "the route leaves out events where it has label `docs`");
  const none = explain({
    any: [{ type: "event", value: "push" }, { type: "event", value: "issues" }],
  }, event);
  assert.match(
    whyNot(none),
    /^none of its 2 alternatives match \(the first: the route wants `push`/,
  );
});

Deno.test("plain words: nodes are named as the route editor names them, with no indices", () => {
  const explanation = explain(BUG_ROUTE, pullRequest("docs"));
  assert.equal(nodeName(explanation), "All of these match");
  if (explanation.kind !== "all") throw new Error("unreachable");
  assert.deepEqual(explanation.children.map(nodeName), [
    "Event pull_request.opened",
    '$.pull_request.labels[*].name equals "bug"',
  ]);
  assert.doesNotMatch(explanation.reason, /\[\d+\]/);
  assert.equal(
    explanation.reason,
    '1 of 2 match; the first that does not: $.pull_request.labels[*].name eq "bug"',
  );
});

Deno.test("route editor: the verdict box says why in the event page's words", () => {
  const tree = fromFilterNode(BUG_ROUTE, new NodeIds());
  const verdicts = explainTree(tree, checkTree(tree), pullRequest("docs"));
  const html = renderToString(
    <VerdictSummary
      explained={verdicts}
      sampleError={null}
      loading={false}
      enabled
      fallback={false}
      problems={0}
      incomplete={0}
      server={null}
    />,
  );
  assert.match(html, /This route does not send the sample event/);
  assert.match(
    html,
    /the route wants label <code[^>]*>bug<\/code>; this event has <code[^>]*>docs<\/code>/,
  );
  assert.doesNotMatch(html, /all\[\d\]|1 of 2 match/);
});

Deno.test("plain words: each line of the tree says what a leaf saw and how many of a group match", () => {
  const explanation = explain(BUG_ROUTE, pullRequest("docs"));
  assert.equal(nodeLine(explanation), "1 of 2 match; all must");
  if (explanation.kind !== "all") throw new Error("unreachable");
  assert.deepEqual(explanation.children.map(nodeLine), [
    "the event is `pull_request.opened`",
    "the route wants label `bug`; this event has `docs`",
  ]);
  assert.equal(
    nodeLine(explain({ not: { type: "event", value: "push" } }, pullRequest())),
    "the filter inside does not match, so this does",
  );
});
