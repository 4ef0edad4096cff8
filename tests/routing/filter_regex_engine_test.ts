/**
 * The regex engine choice: a pattern runs on the native RegExp only when it is proven
 * linear-time and means there what RE2 means; every other valid pattern runs on re2js.
 */
import assert from "node:assert/strict";
import { RE2JS } from "re2js";
import { MAX_OPTIONALS } from "../../lib/routing/linear_regex.ts";
import { compileRegex, regexEngine } from "../../lib/routing/regex.ts";

Deno.test("regex engine: linear patterns run natively, the rest on re2js", () => {
  const cases: [string, boolean, "native" | "re2js"][] = [
    ["^(fix|feat)(\\(.+\\))?:", false, "native"],
    ["\\b(wip|draft)\\b", true, "native"],
    ["release-v\\d\\.\\d", true, "native"],
    ["^[a-z0-9_-]+$", false, "native"],
    ["^.*x", true, "native"],
    ["refs/heads/(main|master)", false, "native"],
    ["", true, "native"],
    ["(a+)+$", true, "re2js"],
    ["(a|a)*b", true, "re2js"],
    ["a*a*b", true, "re2js"],
    ["^a*a*b", true, "re2js"],
    [".*x", true, "re2js"],
    ["^a+|b+", true, "re2js"],
    ["a{2,3}", true, "re2js"],
    ["(?i)abc", true, "re2js"],
    ["\\b(wip|draft)\\b", false, "re2js"],
    ["\\w+", true, "re2js"],
    ["^é+", false, "re2js"],
    ["\\pL", true, "re2js"],
    ["[[:alpha:]]", true, "re2js"],
    ["a+?", true, "re2js"],
    ["x?".repeat(MAX_OPTIONALS), true, "native"],
    ["x?".repeat(MAX_OPTIONALS + 1), true, "re2js"],
  ];
  for (const [pattern, caseSensitive, engine] of cases) {
    assert.equal(regexEngine(pattern, caseSensitive), engine, `${pattern} (${caseSensitive})`);
  }
});

const TEXTS = [
  "",
  "fix: typo",
  "Fix(core): the thing",
  "FEAT(x):",
  "feat(: no",
  "fix(\n): split",
  "a WIP change",
  "draft",
  "swiper",
  "release-v1.2",
  "release-v1x2",
  "refs/heads/main",
  "refs/heads/Master",
  "ab-c_9",
  "AB-C",
  "line\nx",
  "xx",
  "ſ K k s",
  "😀 x",
  "tab\there",
  "]",
  "a-b",
];

const PATTERNS: [string, boolean][] = [
  ["^(fix|feat)(\\(.+\\))?:", false],
  ["^(fix|feat)(\\(.+\\))?:", true],
  ["\\b(wip|draft)\\b", true],
  ["release-v\\d\\.\\d", true],
  ["release-v\\D", false],
  ["^[a-z0-9_-]+$", false],
  ["^[a-z0-9_-]+$", true],
  ["^.*x", true],
  ["^.+$", true],
  ["refs/heads/(main|master)", false],
  ["[^\\]]", true],
  ["\\s", true],
  ["\\S\\s\\S", false],
  ["^[^a-z]", false],
  ["s", false],
  ["k", false],
  ["^\\t", true],
  ["x?y?$", true],
  ["\\Bi", true],
  ["[\\]-]", true],
];

Deno.test("regex engine: native patterns decide every text as re2js does", () => {
  for (const [pattern, caseSensitive] of PATTERNS) {
    assert.equal(regexEngine(pattern, caseSensitive), "native", pattern);
    const search = compileRegex(pattern, caseSensitive);
    const re2 = RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    for (const text of TEXTS) {
      assert.equal(
        search(text),
        re2.test(text),
        `${pattern} (${caseSensitive ? "case-sensitive" : "case-insensitive"}) on ${
          JSON.stringify(text)
        }`,
      );
    }
  }
});

Deno.test("regex engine: an invalid pattern is refused whichever engine would run it", () => {
  assert.throws(() => compileRegex("(", true), /^TypeError: invalid regex/);
  assert.throws(() => compileRegex("a**", false), /^TypeError: invalid regex/);
});
