/**
 * The filter engine's case table: plain data, no test framework, so the same cases run
 * against the server matcher (`tests/routing/filter_test.ts`) and the console's browser preview.
 */
import type { FieldOp, FilterNode, ForgeEvent, Group, Route, Scope } from "../lib/types.ts";

/** One matcher case: a tree, an event, and whether the tree matches it. */
export interface FilterCase {
  name: string;
  node: FilterNode;
  kind: string;
  action?: string;
  payload: Record<string, unknown>;
  expected: boolean;
}

/** One route-selection case: the ids of the routes that fire, in order. */
export interface SelectionCase {
  name: string;
  event: Pick<ForgeEvent, "kind" | "action" | "provider" | "payload">;
  scope: Scope;
  routes: Route[];
  groups: Group[];
  expected: string[];
}

const field = (
  path: string,
  op: FieldOp,
  value?: unknown,
  caseSensitive?: boolean,
): FilterNode => ({
  type: "field",
  path,
  op,
  ...(value === undefined ? {} : { value }),
  ...(caseSensitive === undefined ? {} : { caseSensitive }),
});
const event = (value: string | string[]): FilterNode => ({ type: "event", value });

const repository = {
  full_name: "acme/widgets",
  private: false,
  topics: ["rust", "CLI"],
  stargazers_count: 1500,
  owner: { login: "acme" },
  "x.y": "dotted",
  "+1": 5,
  license: null,
};

const pr = {
  action: "opened",
  number: 42,
  pull_request: {
    title: "Fix Bug in parser",
    draft: false,
    merged: null,
    additions: 120,
    deletions: "7",
    score: "3.5",
    created_at: "2024-05-01T10:00:00Z",
    updated_at: "2024-05-02T12:30:00+02:00",
    labels: [{ name: "bug" }, { name: "Docs" }],
    head: { ref: "feature/parser" },
    base: { ref: "main" },
    user: { login: "octocat" },
    body: "",
    requested_reviewers: [],
    assignees: [{ login: "ann" }, { login: "bob" }],
    matrix: [[1, 2], [3]],
  },
  repository,
  sender: { login: "octocat", id: 1 },
  installation: { id: 77 },
};

const push = {
  ref: "refs/heads/main",
  forced: true,
  commits: [
    { message: "fix: crash on start", author: { name: "Ann" }, added: ["a.ts"] },
    { message: "docs: readme", author: { name: "Bob" }, added: [] },
  ],
  head_commit: { timestamp: "2024-05-01T10:00:00+00:00" },
  repository,
  sender: { login: "ann", id: 2 },
};

const custom = { title: "Deploy done", level: "INFO", count: "12", tags: ["prod", "eu"] };

const PR = { kind: "pull_request", action: "opened", payload: pr };
const PUSH = { kind: "push", payload: push };
const CUSTOM = { kind: "custom", payload: custom };

/** Matcher cases. */
export const filterCases: FilterCase[] = [
  // eq
  { name: "eq string", node: field("pull_request.base.ref", "eq", "main"), ...PR, expected: true },
  {
    name: "eq string other",
    node: field("pull_request.base.ref", "eq", "dev"),
    ...PR,
    expected: false,
  },
  { name: "eq ignores case", node: field("sender.login", "eq", "OctoCat"), ...PR, expected: true },
  {
    name: "eq case-sensitive",
    node: field("sender.login", "eq", "OctoCat", true),
    ...PR,
    expected: false,
  },
  {
    name: "eq case-sensitive exact",
    node: field("sender.login", "eq", "octocat", true),
    ...PR,
    expected: true,
  },
  {
    name: "eq is the default op",
    node: { type: "field", path: "repository.full_name", value: "ACME/widgets" },
    ...PR,
    expected: true,
  },
  { name: "eq number", node: field("number", "eq", 42), ...PR, expected: true },
  { name: "eq number other", node: field("number", "eq", 43), ...PR, expected: false },
  {
    name: "eq number vs numeric string value",
    node: field("number", "eq", "42"),
    ...PR,
    expected: true,
  },
  {
    name: "eq numeric string payload vs number",
    node: field("pull_request.deletions", "eq", 7),
    ...PR,
    expected: true,
  },
  {
    name: "eq numeric string vs number 7.0",
    node: field("pull_request.deletions", "eq", 7.0),
    ...PR,
    expected: true,
  },
  {
    name: "eq numeric strings compare as strings",
    node: field("pull_request.deletions", "eq", "7.0"),
    ...PR,
    expected: false,
  },
  { name: "eq boolean", node: field("pull_request.draft", "eq", false), ...PR, expected: true },
  {
    name: "eq boolean other",
    node: field("pull_request.draft", "eq", true),
    ...PR,
    expected: false,
  },
  {
    name: "eq boolean vs string",
    node: field("pull_request.draft", "eq", "FALSE"),
    ...PR,
    expected: true,
  },
  {
    name: "eq boolean vs number",
    node: field("pull_request.draft", "eq", 0),
    ...PR,
    expected: false,
  },
  { name: "eq null", node: field("pull_request.merged", "eq", null), ...PR, expected: true },
  {
    name: "eq null vs string null",
    node: field("pull_request.merged", "eq", "null"),
    ...PR,
    expected: false,
  },
  { name: "eq null on non-null", node: field("sender.login", "eq", null), ...PR, expected: false },
  {
    name: "eq null on missing path",
    node: field("pull_request.nothing", "eq", null),
    ...PR,
    expected: false,
  },
  { name: "eq empty string", node: field("pull_request.body", "eq", ""), ...PR, expected: true },
  {
    name: "eq array elements",
    node: field("repository.topics", "eq", "cli"),
    ...PR,
    expected: true,
  },
  {
    name: "eq object never equals",
    node: field("pull_request.head", "eq", "feature/parser"),
    ...PR,
    expected: false,
  },
  {
    name: "eq nested array is not expanded twice",
    node: field("pull_request.matrix", "eq", 1),
    ...PR,
    expected: false,
  },
  {
    name: "eq nested array through [*]",
    node: field("pull_request.matrix[*]", "eq", 3),
    ...PR,
    expected: true,
  },
  {
    name: "eq missing path",
    node: field("pull_request.milestone.title", "eq", "v1"),
    ...PR,
    expected: false,
  },
  // ne
  {
    name: "ne different",
    node: field("pull_request.base.ref", "ne", "dev"),
    ...PR,
    expected: true,
  },
  { name: "ne equal", node: field("pull_request.base.ref", "ne", "MAIN"), ...PR, expected: false },
  {
    name: "ne case-sensitive",
    node: field("pull_request.base.ref", "ne", "MAIN", true),
    ...PR,
    expected: true,
  },
  {
    name: "ne missing path",
    node: field("pull_request.milestone.title", "ne", "v1"),
    ...PR,
    expected: true,
  },
  {
    name: "ne array: some element equals",
    node: field("pull_request.labels[*].name", "ne", "bug"),
    ...PR,
    expected: false,
  },
  {
    name: "ne array: none equals",
    node: field("pull_request.labels[*].name", "ne", "ci"),
    ...PR,
    expected: true,
  },
  {
    name: "ne empty array",
    node: field("pull_request.requested_reviewers", "ne", "x"),
    ...PR,
    expected: true,
  },
  { name: "ne null", node: field("pull_request.merged", "ne", null), ...PR, expected: false },
  // contains / startsWith / endsWith
  { name: "contains", node: field("pull_request.title", "contains", "bug"), ...PR, expected: true },
  {
    name: "contains case-sensitive",
    node: field("pull_request.title", "contains", "bug", true),
    ...PR,
    expected: false,
  },
  {
    name: "contains absent",
    node: field("pull_request.title", "contains", "feature"),
    ...PR,
    expected: false,
  },
  {
    name: "contains over labels",
    node: field("labels[*].name", "contains", "oc"),
    kind: "pull_request",
    action: "opened",
    payload: { labels: [{ name: "docs" }, { name: "ci" }] },
    expected: true,
  },
  {
    name: "contains none of labels",
    node: field("labels[*].name", "contains", "bug"),
    kind: "pull_request",
    action: "opened",
    payload: { labels: [{ name: "docs" }, { name: "ci" }] },
    expected: false,
  },
  {
    name: "contains ignores numbers",
    node: field("number", "contains", "4"),
    ...PR,
    expected: false,
  },
  {
    name: "contains missing path",
    node: field("pull_request.nope", "contains", "a"),
    ...PR,
    expected: false,
  },
  {
    name: "startsWith",
    node: field("pull_request.head.ref", "startsWith", "Feature/"),
    ...PR,
    expected: true,
  },
  {
    name: "startsWith case-sensitive",
    node: field("pull_request.head.ref", "startsWith", "Feature/", true),
    ...PR,
    expected: false,
  },
  {
    name: "startsWith no",
    node: field("pull_request.head.ref", "startsWith", "fix/"),
    ...PR,
    expected: false,
  },
  {
    name: "startsWith push ref",
    node: field("ref", "startsWith", "refs/heads/"),
    ...PUSH,
    expected: true,
  },
  {
    name: "endsWith",
    node: field("repository.full_name", "endsWith", "/WIDGETS"),
    ...PR,
    expected: true,
  },
  {
    name: "endsWith no",
    node: field("repository.full_name", "endsWith", "/gadgets"),
    ...PR,
    expected: false,
  },
  {
    name: "endsWith over commits",
    node: field("commits[*].message", "endsWith", "readme"),
    ...PUSH,
    expected: true,
  },
  {
    name: "endsWith on boolean is false",
    node: field("forced", "endsWith", "e"),
    ...PUSH,
    expected: false,
  },
  // regex
  {
    name: "regex unanchored",
    node: field("pull_request.title", "regex", "bug\\s+in"),
    ...PR,
    expected: true,
  },
  {
    name: "regex ignores case",
    node: field("pull_request.title", "regex", "^fix"),
    ...PR,
    expected: true,
  },
  {
    name: "regex case-sensitive",
    node: field("pull_request.title", "regex", "^fix", true),
    ...PR,
    expected: false,
  },
  {
    name: "regex anchored no",
    node: field("pull_request.title", "regex", "^parser"),
    ...PR,
    expected: false,
  },
  {
    name: "regex alternation over commits",
    node: field("commits[*].message", "regex", "^(feat|fix):"),
    ...PUSH,
    expected: true,
  },
  {
    name: "regex over array values",
    node: field("repository.topics", "regex", "^ru"),
    ...PR,
    expected: true,
  },
  { name: "regex number not tested", node: field("number", "regex", "42"), ...PR, expected: false },
  {
    name: "regex missing path",
    node: field("pull_request.nope", "regex", ".*"),
    ...PR,
    expected: false,
  },
  {
    name: "regex empty string payload",
    node: field("pull_request.body", "regex", "^$"),
    ...PR,
    expected: true,
  },
  {
    name: "regex catastrophic pattern, no match",
    node: field("text", "regex", "(a+)+$"),
    kind: "custom",
    payload: { text: "a".repeat(5000) + "!" },
    expected: false,
  },
  {
    name: "regex catastrophic pattern, anchored",
    node: field("text", "regex", "^(a|aa)+$"),
    kind: "custom",
    payload: { text: "a".repeat(5000) + "!" },
    expected: false,
  },
  {
    name: "regex nested quantifier that matches",
    node: field("text", "regex", "(a+)+!"),
    kind: "custom",
    payload: { text: "a".repeat(5000) + "!" },
    expected: true,
  },
  // gt / gte / lt / lte
  { name: "gt number", node: field("pull_request.additions", "gt", 100), ...PR, expected: true },
  {
    name: "gt number equal",
    node: field("pull_request.additions", "gt", 120),
    ...PR,
    expected: false,
  },
  {
    name: "gte number equal",
    node: field("pull_request.additions", "gte", 120),
    ...PR,
    expected: true,
  },
  { name: "lt number", node: field("pull_request.additions", "lt", 100), ...PR, expected: false },
  { name: "lte number", node: field("pull_request.additions", "lte", 120), ...PR, expected: true },
  {
    name: "gt numeric string payload",
    node: field("pull_request.deletions", "gt", 5),
    ...PR,
    expected: true,
  },
  {
    name: "gt numeric string both",
    node: field("pull_request.score", "gt", "3.25"),
    ...PR,
    expected: true,
  },
  {
    name: "lt numeric strings compare as numbers",
    node: field("count", "lt", "9"),
    ...CUSTOM,
    expected: false,
  },
  {
    name: "gte numeric string value",
    node: field("repository.stargazers_count", "gte", "1500"),
    ...PR,
    expected: true,
  },
  {
    name: "gt non-numeric string",
    node: field("pull_request.title", "gt", 1),
    ...PR,
    expected: false,
  },
  { name: "gt boolean", node: field("pull_request.draft", "gt", 0), ...PR, expected: false },
  { name: "gt null", node: field("pull_request.merged", "gt", 0), ...PR, expected: false },
  { name: "gt missing path", node: field("pull_request.nope", "gt", 0), ...PR, expected: false },
  { name: "lt missing path", node: field("pull_request.nope", "lt", 0), ...PR, expected: false },
  {
    name: "gt ISO timestamp",
    node: field("pull_request.created_at", "gt", "2024-04-30T23:59:59Z"),
    ...PR,
    expected: true,
  },
  {
    name: "lt ISO timestamp",
    node: field("pull_request.created_at", "lt", "2024-05-01T10:00:00Z"),
    ...PR,
    expected: false,
  },
  {
    name: "lte ISO timestamp equal",
    node: field("pull_request.created_at", "lte", "2024-05-01T10:00:00.000Z"),
    ...PR,
    expected: true,
  },
  {
    name: "gt ISO with offset",
    node: field("pull_request.updated_at", "gt", "2024-05-02T11:00:00Z"),
    ...PR,
    expected: false,
  },
  {
    name: "lt ISO with offset",
    node: field("pull_request.updated_at", "lt", "2024-05-02T10:31:00Z"),
    ...PR,
    expected: true,
  },
  {
    name: "gte ISO date only",
    node: field("pull_request.created_at", "gte", "2024-05-01"),
    ...PR,
    expected: true,
  },
  {
    name: "lt ISO date only",
    node: field("head_commit.timestamp", "lt", "2024-05-01"),
    ...PUSH,
    expected: false,
  },
  {
    name: "gt with a day February does not have in the payload: not a timestamp, so false",
    node: field("closes_at", "gt", "2026-02-01T00:00:00Z"),
    kind: "custom",
    payload: { closes_at: "2026-02-30T00:00:00Z" },
    expected: false,
  },
  {
    name: "lt with an offset past 23 hours in the payload: not a timestamp, so false",
    node: field("closes_at", "lt", "2026-02-01T00:00:00Z"),
    kind: "custom",
    payload: { closes_at: "2026-01-01T10:00:00+25:00" },
    expected: false,
  },
  {
    name: "gt February 29 of a leap year is a timestamp",
    node: field("pull_request.created_at", "gt", "2024-02-29T00:00:00Z"),
    ...PR,
    expected: true,
  },
  {
    name: "gt ISO vs number",
    node: field("pull_request.created_at", "gt", 0),
    ...PR,
    expected: false,
  },
  {
    name: "gt number vs ISO",
    node: field("pull_request.additions", "gt", "2024-01-01"),
    ...PR,
    expected: false,
  },
  { name: "gt over array", node: field("commits[*].added", "gt", "0"), ...PUSH, expected: false },
  // in
  {
    name: "in strings",
    node: field("pull_request.base.ref", "in", ["main", "release"]),
    ...PR,
    expected: true,
  },
  {
    name: "in strings ignore case",
    node: field("pull_request.base.ref", "in", ["MAIN"]),
    ...PR,
    expected: true,
  },
  {
    name: "in case-sensitive",
    node: field("pull_request.base.ref", "in", ["MAIN"], true),
    ...PR,
    expected: false,
  },
  {
    name: "in none",
    node: field("pull_request.base.ref", "in", ["dev", "next"]),
    ...PR,
    expected: false,
  },
  { name: "in numbers", node: field("number", "in", [1, 42]), ...PR, expected: true },
  { name: "in mixed numeric string", node: field("number", "in", ["42"]), ...PR, expected: true },
  {
    name: "in with null",
    node: field("pull_request.merged", "in", [null, true]),
    ...PR,
    expected: true,
  },
  {
    name: "in over array values",
    node: field("pull_request.labels[*].name", "in", ["docs", "ci"]),
    ...PR,
    expected: true,
  },
  {
    name: "in missing path",
    node: field("pull_request.nope", "in", ["a"]),
    ...PR,
    expected: false,
  },
  // exists
  { name: "exists present", node: field("pull_request.title", "exists"), ...PR, expected: true },
  {
    name: "exists true explicit",
    node: field("pull_request.title", "exists", true),
    ...PR,
    expected: true,
  },
  { name: "exists on null", node: field("pull_request.merged", "exists"), ...PR, expected: false },
  {
    name: "exists missing",
    node: field("pull_request.milestone", "exists"),
    ...PR,
    expected: false,
  },
  {
    name: "exists empty string",
    node: field("pull_request.body", "exists"),
    ...PR,
    expected: true,
  },
  {
    name: "exists false on missing",
    node: field("pull_request.milestone", "exists", false),
    ...PR,
    expected: true,
  },
  {
    name: "exists false on null",
    node: field("repository.license", "exists", false),
    ...PR,
    expected: true,
  },
  {
    name: "exists false on present",
    node: field("pull_request.title", "exists", false),
    ...PR,
    expected: false,
  },
  {
    name: "exists on empty array",
    node: field("pull_request.requested_reviewers", "exists"),
    ...PR,
    expected: false,
  },
  {
    name: "exists false on empty array",
    node: field("pull_request.requested_reviewers", "exists", false),
    ...PR,
    expected: true,
  },
  {
    name: "exists on false boolean",
    node: field("pull_request.draft", "exists"),
    ...PR,
    expected: true,
  },
  // paths
  {
    name: "path with $",
    node: field("$.pull_request.base.ref", "eq", "main"),
    ...PR,
    expected: true,
  },
  {
    name: "path with bracket index",
    node: field("pull_request.labels[1].name", "eq", "docs"),
    ...PR,
    expected: true,
  },
  {
    name: "path with $ and index",
    node: field("$.pull_request.assignees[0].login", "eq", "ann"),
    ...PR,
    expected: true,
  },
  {
    name: "path index out of range",
    node: field("pull_request.assignees[5].login", "exists"),
    ...PR,
    expected: false,
  },
  {
    name: "path quoted key with dot",
    node: field("repository['x.y']", "eq", "dotted"),
    ...PR,
    expected: true,
  },
  {
    name: "path quoted odd key",
    node: field("$.repository['+1']", "eq", 5),
    ...PR,
    expected: true,
  },
  {
    name: "path leading bracket",
    node: field("['repository'].full_name", "contains", "acme"),
    ...PR,
    expected: true,
  },
  { name: "path recursive descent", node: field("$..login", "eq", "bob"), ...PR, expected: true },
  {
    name: "path filter expression",
    node: field("$.pull_request.labels[?(@.name == 'Docs')].name", "exists"),
    ...PR,
    expected: true,
  },
  {
    name: "path filter expression no hit",
    node: field("$.pull_request.labels[?(@.name == 'ci')].name", "exists"),
    ...PR,
    expected: false,
  },
  {
    name: "path slice",
    node: field("$.commits[0:1].author.name", "eq", "Bob"),
    ...PUSH,
    expected: false,
  },
  {
    name: "path negative slice",
    node: field("$.commits[-1:].author.name", "eq", "Bob"),
    ...PUSH,
    expected: true,
  },
  {
    name: "path wildcard object",
    node: field("pull_request.head.*", "eq", "feature/parser"),
    ...PR,
    expected: true,
  },
  { name: "path root $ is the payload", node: field("$", "exists"), ...PR, expected: true },
  {
    name: "path through a string",
    node: field("pull_request.title.name", "exists"),
    ...PR,
    expected: false,
  },
  {
    name: "path through null",
    node: field("pull_request.merged.by", "exists", false),
    ...PR,
    expected: true,
  },
  { name: "custom payload field", node: field("level", "eq", "info"), ...CUSTOM, expected: true },
  { name: "custom array field", node: field("tags", "in", ["eu"]), ...CUSTOM, expected: true },
  // event filter
  { name: "event kind", node: event("pull_request"), ...PR, expected: true },
  { name: "event kind other", node: event("push"), ...PR, expected: false },
  { name: "event kind.action", node: event("pull_request.opened"), ...PR, expected: true },
  { name: "event kind.action other", node: event("pull_request.closed"), ...PR, expected: false },
  { name: "event kind.*", node: event("pull_request.*"), ...PR, expected: true },
  { name: "event kind.* without action", node: event("push.*"), ...PUSH, expected: true },
  {
    name: "event kind.action without action",
    node: event("push.created"),
    ...PUSH,
    expected: false,
  },
  { name: "event *", node: event("*"), ...PUSH, expected: true },
  { name: "event *.action", node: event("*.opened"), ...PR, expected: true },
  { name: "event glob in kind", node: event("pull_*.opened"), ...PR, expected: true },
  { name: "event glob in action", node: event("pull_request.open*"), ...PR, expected: true },
  { name: "event glob no", node: event("issue*"), ...PR, expected: false },
  { name: "event ignores case", node: event("Pull_Request.OPENED"), ...PR, expected: true },
  { name: "event custom", node: event("custom"), ...CUSTOM, expected: true },
  { name: "event custom vs push", node: event("custom"), ...PUSH, expected: false },
  {
    name: "event list any of",
    node: event(["push", "pull_request.opened"]),
    ...PR,
    expected: true,
  },
  { name: "event list none", node: event(["push", "issues"]), ...PR, expected: false },
  { name: "event kind is not a prefix", node: event("pull"), ...PR, expected: false },
  // combinators
  {
    name: "all both match",
    node: { all: [event("pull_request"), field("pull_request.base.ref", "eq", "main")] },
    ...PR,
    expected: true,
  },
  {
    name: "all one fails",
    node: { all: [event("pull_request"), field("pull_request.base.ref", "eq", "dev")] },
    ...PR,
    expected: false,
  },
  {
    name: "any one matches",
    node: { any: [event("push"), field("pull_request.base.ref", "eq", "main")] },
    ...PR,
    expected: true,
  },
  {
    name: "any none match",
    node: { any: [event("push"), field("pull_request.base.ref", "eq", "dev")] },
    ...PR,
    expected: false,
  },
  { name: "not inverts", node: { not: event("push") }, ...PR, expected: true },
  { name: "not not", node: { not: { not: event("push") } }, ...PR, expected: false },
  { name: "empty all is true", node: { all: [] }, ...PR, expected: true },
  { name: "empty any is false", node: { any: [] }, ...PR, expected: false },
  { name: "not empty any is true", node: { not: { any: [] } }, ...PR, expected: true },
  {
    name: "all with empty any is false",
    node: { all: [event("pull_request"), { any: [] }] },
    ...PR,
    expected: false,
  },
  {
    name: "nested any of all",
    node: {
      any: [
        { all: [event("push"), field("ref", "eq", "refs/heads/main")] },
        { all: [event("pull_request.opened"), { not: field("pull_request.draft", "eq", true) }] },
      ],
    },
    ...PR,
    expected: true,
  },
  {
    name: "nested labels and not bot",
    node: {
      all: [
        field("pull_request.labels[*].name", "in", ["bug", "security"]),
        { not: field("sender.login", "endsWith", "[bot]") },
        {
          any: [
            field("pull_request.additions", "gt", 500),
            field("repository.private", "eq", false),
          ],
        },
      ],
    },
    ...PR,
    expected: true,
  },
  {
    name: "nested push to main by bot",
    node: {
      all: [
        event("push"),
        field("ref", "eq", "refs/heads/main"),
        { not: { any: [field("forced", "eq", true), field("sender.login", "eq", "ann")] } },
      ],
    },
    ...PUSH,
    expected: false,
  },
  {
    name: "deep nesting to depth 8",
    node: { not: { not: { not: { not: { not: { not: { not: event("push") } } } } } } },
    ...PUSH,
    expected: false,
  },
];

const discord = [{ platform: "discord" as const, channelId: "100" }];
const route = (id: string, groupId: string, extra: Partial<Route> = {}): Route => ({
  id,
  name: id,
  enabled: true,
  groupId,
  filters: [],
  targets: discord,
  ...extra,
});
const owner = [{ userId: "1", login: "owner", role: "owner" as const }];
const group = (id: string, extra: Partial<Group> = {}): Group => ({
  id,
  name: id,
  members: owner,
  ...extra,
});
const pushEvent = { kind: "push", provider: "github" as const, payload: push };
const prEvent = {
  kind: "pull_request",
  action: "opened",
  provider: "github" as const,
  payload: pr,
};
const giteaPush = { kind: "push", provider: "gitea" as const, payload: push };
const customEvent = { kind: "custom", provider: "custom" as const, payload: custom };
const GLOBAL: Scope = { type: "global" };
const onPush: Partial<Route> = { filters: [{ type: "event", value: "push" }] };
const onPr: Partial<Route> = { filters: [{ type: "event", value: "pull_request" }] };

/** Route-selection cases. */
export const selectionCases: SelectionCase[] = [
  {
    name: "matching routes fire in stored order",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("b", "g1", onPush), route("a", "g1", onPush), route("c", "g1", onPr)],
    groups: [group("g1")],
    expected: ["b", "a"],
  },
  {
    name: "disabled routes never fire",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("a", "g1", { ...onPush, enabled: false }), route("b", "g1", onPush)],
    groups: [group("g1")],
    expected: ["b"],
  },
  {
    name: "global ingress reaches every group",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("a", "g1", onPush), route("b", "g2", onPush)],
    groups: [group("g1"), group("g2")],
    expected: ["a", "b"],
  },
  {
    name: "group ingress reaches only that group",
    event: pushEvent,
    scope: { type: "group", groupId: "g2" },
    routes: [route("a", "g1", onPush), route("b", "g2", onPush)],
    groups: [group("g1"), group("g2")],
    expected: ["b"],
  },
  {
    name: "routes of an unknown group never fire",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("a", "ghost", onPush), route("b", "g1", onPush)],
    groups: [group("g1")],
    expected: ["b"],
  },
  {
    name: "providers restrict forges",
    event: giteaPush,
    scope: GLOBAL,
    routes: [route("a", "gh", onPush), route("b", "gt", onPush), route("c", "any", onPush)],
    groups: [
      group("gh", { providers: ["github"] }),
      group("gt", { providers: ["gitea"] }),
      group("any"),
    ],
    expected: ["b", "c"],
  },
  {
    name: "custom events are not restricted by providers",
    event: customEvent,
    scope: GLOBAL,
    routes: [route("a", "gh", { filters: [{ type: "event", value: "custom" }] })],
    groups: [group("gh", { providers: ["github"] })],
    expected: ["a"],
  },
  {
    name: "a different installation id never enters the group",
    event: prEvent,
    scope: GLOBAL,
    routes: [route("a", "g1", onPr), route("b", "g2", onPr)],
    groups: [group("g1", { installationId: 77 }), group("g2", { installationId: 78 })],
    expected: ["a"],
  },
  {
    name: "an installation id is not required of events without one",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("a", "g1", onPush)],
    groups: [group("g1", { installationId: 77 })],
    expected: ["a"],
  },
  {
    name: "a different installation id is refused on the group's own ingress too",
    event: prEvent,
    scope: { type: "group", groupId: "g2" },
    routes: [route("b", "g2", onPr)],
    groups: [group("g2", { installationId: 78 })],
    expected: [],
  },
  {
    name: "owners restrict forge events to their repositories",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("a", "mine", onPush), route("b", "other", onPush)],
    groups: [group("mine", { owners: ["ACME"] }), group("other", { owners: ["globex"] })],
    expected: ["a"],
  },
  {
    name: "ast takes precedence over filters",
    event: pushEvent,
    scope: GLOBAL,
    routes: [
      route("a", "g1", { ...onPr, ast: { type: "event", value: "push" } }),
      route("b", "g1", { ...onPush, ast: { type: "event", value: "issues" } }),
    ],
    groups: [group("g1")],
    expected: ["a"],
  },
  {
    name: "flat filters must all match",
    event: pushEvent,
    scope: GLOBAL,
    routes: [
      route("a", "g1", {
        filters: [{ type: "event", value: "push" }, {
          type: "field",
          path: "ref",
          value: "refs/heads/dev",
        }],
      }),
      route("b", "g1", {
        filters: [{ type: "event", value: "push" }, {
          type: "field",
          path: "ref",
          value: "refs/heads/main",
        }],
      }),
    ],
    groups: [group("g1")],
    expected: ["b"],
  },
  {
    name: "fallback does not fire when a regular route of its group fired",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("fb", "g1", { fallback: true }), route("a", "g1", onPush)],
    groups: [group("g1")],
    expected: ["a"],
  },
  {
    name: "fallback fires when no regular route of its group fired",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("a", "g1", onPr), route("fb", "g1", { fallback: true })],
    groups: [group("g1")],
    expected: ["fb"],
  },
  {
    name: "fallback is per group",
    event: pushEvent,
    scope: GLOBAL,
    routes: [
      route("a", "g1", onPush),
      route("fb1", "g1", { fallback: true }),
      route("fb2", "g2", { fallback: true }),
    ],
    groups: [group("g1"), group("g2")],
    expected: ["a", "fb2"],
  },
  {
    name: "fallback filters still apply",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("fb", "g1", { ...onPr, fallback: true })],
    groups: [group("g1")],
    expected: [],
  },
  {
    name: "a disabled regular route does not suppress the fallback",
    event: pushEvent,
    scope: GLOBAL,
    routes: [
      route("a", "g1", { ...onPush, enabled: false }),
      route("fb", "g1", { fallback: true }),
    ],
    groups: [group("g1")],
    expected: ["fb"],
  },
  {
    name: "several fallbacks keep stored order",
    event: pushEvent,
    scope: GLOBAL,
    routes: [route("fb2", "g1", { fallback: true }), route("fb1", "g1", { fallback: true })],
    groups: [group("g1")],
    expected: ["fb2", "fb1"],
  },
  {
    name: "a route of a refused group does not suppress another group's fallback",
    event: giteaPush,
    scope: GLOBAL,
    routes: [
      route("a", "gh", onPush),
      route("fb", "gh", { fallback: true }),
      route("b", "gt", { fallback: true }),
    ],
    groups: [group("gh", { providers: ["github"] }), group("gt")],
    expected: ["b"],
  },
];
