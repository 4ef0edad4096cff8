/**
 * The JSONPath grammar: every part of every path is checked (unions included), the accepted
 * grammar gives the values jsonpath-plus gives, in the same order, and deep payloads cannot
 * overflow the evaluation.
 */
import assert from "node:assert/strict";
import { JSONPath } from "jsonpath-plus";
import { compilePath, normalizePath, validatePath } from "../../lib/jsonpath/path.ts";
import type { FilterNode } from "../../lib/types.ts";
import { filterCases } from "../filter_cases.ts";

function fieldPaths(node: FilterNode): string[] {
  if ("all" in node) return node.all.flatMap(fieldPaths);
  if ("any" in node) return node.any.flatMap(fieldPaths);
  if ("not" in node) return fieldPaths(node.not);
  return node.type === "field" ? [node.path] : [];
}

const MORE_PATHS = [
  "$..*",
  "$..name",
  "$..[0]",
  "$..[*]",
  "$..['login','name']",
  "$[*]",
  "$.pull_request.labels[0,1].name",
  "$['repository','sender'].login",
  "$.pull_request[head,base].ref",
  "$.commits[0:2].message",
  "$.commits[::-1].message",
  "$.pull_request.matrix[-2:]",
  "$.pull_request.matrix[5:0:-2]",
  "$.pull_request.matrix[*][*]",
  "$.pull_request.matrix[*][0]",
  "$.repository.topics[1:]",
  "$.repository.*",
  "$.pull_request.labels.length",
  "$.pull_request.title.length",
  "$.commits[*].added[0]",
  "$.pull_request.labels[?(@.name != 'bug')]",
  "$.pull_request.assignees[?(@.login < 'b')].login",
  "$..labels[?(@.name == 'bug' || @.name == 'Docs')].name",
  "$.commits[?(@.author.name == 'Ann')].added[*]",
  "$.pull_request.labels[?(!(@.name == 'bug'))].name",
  "$.pull_request.labels[?(@.name)].name",
  "$.pull_request.labels[?(@.name === 'bug' && true)].name",
  "$.commits[?(@.added.length > 0)].message",
  "$.tags[?(@ == 'eu')]",
  "$.tags[0:1]",
];

Deno.test("accepted paths give jsonpath-plus's values in jsonpath-plus's order", () => {
  const payloads = [...new Set(filterCases.map((entry) => entry.payload))];
  const paths = [...new Set([...filterCases.flatMap((entry) => fieldPaths(entry.node))])];
  paths.push(...MORE_PATHS);
  let compared = 0;
  for (const path of paths) {
    assert.equal(validatePath(path), null, path);
    const resolve = compilePath(path);
    for (const payload of payloads) {
      const reference = JSONPath({ path: normalizePath(path), json: payload, wrap: true });
      assert.deepEqual(resolve(payload), reference, `${path} over ${JSON.stringify(payload)}`);
      compared++;
    }
  }
  assert.ok(compared > 300, `compared only ${compared}`);
});

const REFUSED: [path: string, reason: string][] = [
  [
    "$[k,?(@.n.match('a*a*a*a*a*a*a*a*a*a*b'))]",
    `expression "@.n.match('a*a*a*a*a*a*a*a*a*a*b')": function calls are not allowed`,
  ],
  ["$..[?(@.a.toString())]", 'expression "@.a.toString()": function calls are not allowed'],
  ["$[0,?(@.a == 1),?(@.b())]", 'expression "@.b()": function calls are not allowed'],
  ["$.a[?((@.b))(1)]", 'expression "((@.b))(1)": function calls are not allowed'],
  ["$.a[?(/x+/.test(@.b))]", 'expression "/x+/.test(@.b)": regex literals are not allowed'],
  ["$.a[?(@.b =~ 'x')]", `expression "@.b =~ 'x'": operator "=~" is not allowed`],
  ["$.a[?(@.b + 1 > 2)]", 'expression "@.b + 1 > 2": operator "+" is not allowed'],
  ["$.a[?(@.b = 1)]", 'expression "@.b = 1": operator "=" is not allowed'],
  ["$.a[?(@[@.k] == 1)]", 'expression "@[@.k] == 1": computed property names are not allowed'],
  ["$.a[?(@.constructor)]", 'expression "@.constructor": property "constructor" is not allowed'],
  ["$.a[?(@['__proto__'])]", `expression "@['__proto__']": property "__proto__" is not allowed`],
  [
    "$.a[?(@parent.x)]",
    'expression "@parent.x": unknown name "@parent" (only @ and its properties)',
  ],
  ["$.a[?(Function)]", 'expression "Function": unknown name "Function" (only @ and literals)'],
  ["$.a[?(@.*)]", 'expression "@.*": wildcards are not allowed in filter expressions'],
  ["$[(@.length-1)]", "script expressions (…) are not allowed"],
  ["$[0,(@.length-1)]", "script expressions (…) are not allowed"],
  ["a.constructor.name", 'property "constructor" is not allowed'],
  ["$['__proto__']", 'property "__proto__" is not allowed'],
  ["$[a,prototype]", 'property "prototype" is not allowed'],
  ["$.a.^", 'unexpected "^" after "."'],
  ["$.a~", 'unexpected "~"'],
  ["$.a[@string()]", 'unexpected "@string()" in brackets'],
  ["$.a[`b]", 'unexpected "`b" in brackets'],
  ["$.labels[-1]", "negative index [-1]: use the slice [-1:]"],
  ["$..", "ends with a dot"],
  ["a[", 'unclosed "["'],
];

for (const [path, reason] of REFUSED) {
  Deno.test(`refused: ${path}`, () => {
    assert.equal(validatePath(path), `invalid JSONPath: ${reason}`);
    assert.throws(() => compilePath(path), TypeError);
  });
}

Deno.test("a hostile union is refused before anything runs it", () => {
  const hostile = "$[k,?(@.n.match('a*a*a*a*a*a*a*a*a*a*b'))]";
  assert.match(validatePath(hostile) ?? "", /function calls are not allowed/);
  assert.throws(() => compilePath(hostile), /function calls are not allowed/);
});

Deno.test("a filter reads own properties only, and a missing one is just missing", () => {
  const payload = {
    items: [{ n: 1 }, null, "text", { n: 2, m: { k: 3 } }, { m: null }],
  };
  assert.deepEqual(compilePath("$.items[?(@.n >= 1)].n")(payload), [1, 2]);
  assert.deepEqual(compilePath("$.items[?(@.m.k == 3)].n")(payload), [2]);
  assert.deepEqual(compilePath("$.items[?(@.toString)]")(payload), []);
  assert.deepEqual(compilePath("$.items[?(@.length == 4)]")(payload), ["text"]);
  assert.deepEqual(compilePath("$.items[?(@ == null)]")(payload), [null]);
});

Deno.test("an object or array equals only itself and is never less or greater", () => {
  const payload = { items: [{ a: [1], b: "1" }, { a: 1, b: 1 }] };
  assert.deepEqual(compilePath("$.items[?(@.a == '1')].b")(payload), [1]);
  assert.deepEqual(compilePath("$.items[?(@.a < 2)].b")(payload), [1]);
  assert.deepEqual(compilePath("$.items[?(@.a != @.b)].b")(payload), ["1"]);
});

Deno.test("recursive descent walks a 100,000-deep payload without overflowing", () => {
  let deep: unknown = { leaf: "bottom" };
  for (let level = 0; level < 100_000; level++) deep = { next: deep };
  const payload = { deep, b: 1, list: [[[{ leaf: "shallow" }]]] };
  assert.deepEqual(compilePath("$..b")(payload), [1]);
  assert.deepEqual(compilePath("$..leaf")(payload), ["bottom", "shallow"]);
});
