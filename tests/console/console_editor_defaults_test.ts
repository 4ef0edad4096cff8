/**
 * The route editor's defaults: a new field filter compares with `equals`, its problems wait
 * until the person leaves a field (or tries to save), and the bundled samples cover a failing
 * workflow run on `main`, a review request, a release and a push to a tag.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { newFieldLeaf, opOf, VALUE_LABEL } from "../../lib/console/field_leaf.ts";
import { fromFilterNode, insertNode, NodeIds } from "../../lib/console/filter_tree.ts";
import {
  fieldOfControl,
  hiddenCount,
  isShown,
  type ProblemVisibility,
  shownIssues,
  touchedKeys,
} from "../../lib/console/problem_visibility.ts";
import { samplePaths } from "../../lib/console/sample_paths.ts";
import { inferEvent, PASTED_SAMPLE, sampleChoiceOf, SAMPLES } from "../../lib/console/samples.ts";
import { checkTree } from "../../lib/console/tree_check.ts";
import { compilePath } from "../../lib/jsonpath/path.ts";
import { sampleJson } from "../_ingest_helpers.ts";

Deno.test("editor defaults: a new field filter is `equals`, labelled Value, and only its path is missing", () => {
  const leaf = newFieldLeaf();
  assert.equal(opOf(leaf), "eq");
  assert.equal(VALUE_LABEL, "Value");
  const ids = new NodeIds();
  const root = fromFilterNode({ all: [] }, ids);
  const tree = insertNode(root, root.id, { id: "new-leaf", kind: "leaf", filter: leaf });
  const issues = checkTree(tree);
  assert.deepEqual(issues.byNode.get("new-leaf")?.map((issue) => issue.field), ["path"]);
});

Deno.test("editor defaults: a filter added in the editor shows a field's problem only once the field was left or a save was tried", () => {
  const ids = new NodeIds();
  const loaded = fromFilterNode({ all: [{ type: "field", path: "", value: "x" }] }, ids);
  const loadedId = (loaded as { children: { id: string }[] }).children[0].id;
  const tree = insertNode(loaded, loaded.id, {
    id: "added",
    kind: "leaf",
    filter: { type: "field", path: "", op: "contains", value: "" },
  });
  const issues = checkTree(tree);
  const added = issues.byNode.get("added")!;
  assert.deepEqual(added.map((issue) => issue.field).sort(), ["path", "value"]);

  const untouched: ProblemVisibility = {
    attempted: false,
    fresh: new Set(["added"]),
    touched: new Set(),
  };
  assert.deepEqual(shownIssues(untouched, "added", added), []);
  assert.equal(hiddenCount(untouched, issues), 2);
  assert.equal(isShown(untouched, loadedId, "path"), true, "a filter the route had shows at once");

  const pathLeft = { ...untouched, touched: new Set(touchedKeys("added", "path")) };
  assert.deepEqual(shownIssues(pathLeft, "added", added).map((issue) => issue.field), ["path"]);
  assert.equal(hiddenCount(pathLeft, issues), 1);

  const saved = { ...untouched, attempted: true };
  assert.equal(shownIssues(saved, "added", added).length, 2);
  assert.equal(hiddenCount(saved, issues), 0);
});

Deno.test("editor defaults: a leaf's controls name the field whose problems they reveal", () => {
  assert.equal(fieldOfControl("n3", "n3-path"), "path");
  assert.equal(fieldOfControl("n3", "n3-op"), "op");
  assert.equal(fieldOfControl("n3", "n3-value"), "value");
  assert.equal(fieldOfControl("n3", "n3-event-1"), "value");
  assert.equal(fieldOfControl("n3", "n3-action-0"), "value");
  assert.equal(fieldOfControl("n3", "n31-path"), null);
  assert.equal(fieldOfControl("n3", "n3-more"), null);
});

Deno.test("editor defaults: the bundled samples include a failing run on main, a review request, a release and a tag push", async () => {
  const ids = new Set(SAMPLES.map((entry) => entry.id));
  for (
    const id of ["workflow_run.completed.failure", "pull_request.review_requested", "push.tag"]
  ) {
    assert.ok(ids.has(id), id);
  }
  assert.ok(ids.has("release.published"));

  const failing = await sampleJson("workflow_run.completed.failure");
  assert.deepEqual(compilePath("workflow_run.conclusion")(failing), ["failure"]);
  assert.deepEqual(compilePath("workflow_run.head_branch")(failing), ["main"]);
  const review = await sampleJson("pull_request.review_requested");
  assert.deepEqual(inferEvent(review), { kind: "pull_request", action: "review_requested" });
  assert.deepEqual(compilePath("requested_reviewer.login")(review), ["octocat"]);
  const tag = await sampleJson("push.tag");
  assert.deepEqual(inferEvent(tag), { kind: "push", action: undefined });
  assert.deepEqual(compilePath("ref")(tag), ["refs/tags/simple-tag"]);
  assert.deepEqual(compilePath("deleted")(tag), [false]);
  const release = await sampleJson("release.published");
  assert.ok(samplePaths(release).includes("release.tag_name"));

  for (const entry of SAMPLES) {
    const size = (await Deno.stat(join(PROJECT_ROOT, "static/samples/github", `${entry.id}.json`)))
      .size;
    assert.ok(size < 40_000, `${entry.id} is ${size} bytes`);
  }
});

Deno.test("editor defaults: the sample a saved route reopens with is a bundled one or the pasted one", () => {
  assert.equal(sampleChoiceOf("release.published"), "release.published");
  assert.equal(sampleChoiceOf(PASTED_SAMPLE), PASTED_SAMPLE);
  assert.equal(sampleChoiceOf("../../etc/passwd"), null);
  assert.equal(sampleChoiceOf("__proto__"), null);
  assert.equal(sampleChoiceOf(null), null);
});
