/** The OpenAPI document: served, complete against the route files, and self-consistent. */
import assert from "node:assert/strict";
import manifest from "../../fresh.gen.ts";
import { patternOf } from "../../lib/fresh/route_table.ts";
import { filterCases } from "../filter_cases.ts";
import { startAdminApp } from "../_admin_helpers.ts";

const DOCUMENTED = [/^admin\/api\//, /^api\//, /^admin\/invite\.tsx$/, /^openapi\.json\.ts$/];

/** `METHOD /path/{param}` of every handler of the route files the document must describe. */
function routeOperations(): string[] {
  const operations: string[] = [];
  for (const [file, mod] of Object.entries(manifest.routes)) {
    if (!DOCUMENTED.some((pattern) => pattern.test(file)) || file.includes("_middleware")) continue;
    const path = patternOf(file).pattern.replace(/:(\w+)/g, "{$1}");
    const handler = mod.handler;
    const methods = typeof handler === "object" && handler !== null ? Object.keys(handler) : [];
    if (mod.default && !methods.includes("GET")) methods.push("GET");
    for (const method of methods) operations.push(`${method} ${path}`);
  }
  return operations.sort();
}

Deno.test("openapi: every documented route file and method is in the document, and nothing else", async () => {
  await using app = await startAdminApp();
  const res = await app.t.fetch("/openapi.json");
  assert.equal(res.status, 200);
  const document = await res.json();
  assert.equal(document.openapi, "3.1.0");
  const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)
    ).sort();
  const files = routeOperations();
  assert.ok(files.length >= 28, `found ${files.length} operations`);
  assert.deepEqual(documented, files);
});

Deno.test("openapi: every reference resolves and bodies come from the validating schemas", async () => {
  await using app = await startAdminApp();
  const document = await (await app.t.fetch("/openapi.json")).json();
  const text = JSON.stringify(document);
  for (const [, id] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
    assert.ok(id in document.components.schemas, `dangling $ref ${id}`);
  }
  const put = document.paths["/admin/api/groups/{id}/routes"].put;
  assert.deepEqual(put.requestBody.content["application/json"].schema, {
    $ref: "#/components/schemas/ReplaceRoutesRequest",
  });
  const route = document.components.schemas.Route;
  assert.deepEqual(route.required, ["id", "name", "enabled", "groupId", "filters", "targets"]);
  assert.equal(route.properties.id.pattern, "^[a-z0-9][a-z0-9_-]{0,63}$");
  assert.ok(put.responses["409"], "versioned replacements document the conflict");
  const logs = document.paths["/admin/api/logs"].get.parameters.map((p: { name: string }) =>
    p.name
  );
  for (
    const name of [
      "groupId",
      "routeId",
      "status",
      "platform",
      "event",
      "deliveryId",
      "from",
      "to",
      "cursor",
      "limit",
    ]
  ) {
    assert.ok(logs.includes(name), name);
  }
});

Deno.test("test-match: the filter case table gives the expected results", async () => {
  await using app = await startAdminApp();
  for (const testCase of filterCases) {
    const event = testCase.action ? `${testCase.kind}.${testCase.action}` : testCase.kind;
    const answer = await app.call("viewer", "POST", "/admin/api/test-match", {
      body: { node: testCase.node, event, payload: testCase.payload },
    });
    assert.equal(answer.status, 200, `${testCase.name}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.matched, testCase.expected, testCase.name);
    assert.equal(answer.body.explanation.matched, testCase.expected, testCase.name);
  }
});

Deno.test("test-match: a flat filter list, an explanation, and nothing stored", async () => {
  await using app = await startAdminApp();
  const answer = await app.call("viewer", "POST", "/admin/api/test-match", {
    body: {
      filters: [
        { type: "event", value: "pull_request.opened" },
        { type: "field", path: "$.pull_request.draft", op: "eq", value: true },
      ],
      event: "pull_request.opened",
      payload: { pull_request: { draft: false } },
    },
  });
  assert.equal(answer.body.matched, false);
  assert.equal(answer.body.explanation.kind, "all");
  assert.match(answer.body.explanation.reason, /^1 of 2 match; the first that does not: /);
  const keys = await Array.fromAsync(app.kv.list({ prefix: ["audit"] }));
  assert.equal(keys.length, 0);
});

Deno.test("openapi: the rename's 409, target id formats, own names for replacement answers, and 413/408 for bodies", async () => {
  await using app = await startAdminApp();
  const document = await (await app.t.fetch("/openapi.json")).json();
  const rename = document.paths["/admin/api/groups/{id}/rename"].put;
  assert.ok(rename.responses["409"], "a rename onto an existing id is 409");

  const [discord, telegram] = document.components.schemas.Target.oneOf ??
    document.components.schemas.Target.anyOf;
  const forms = (property: { anyOf?: { type: string; pattern?: string }[] }) =>
    (property.anyOf ?? []).map((form) => `${form.type} ${form.pattern ?? ""}`.trim());
  assert.deepEqual(forms(discord.properties.channelId), ["string ^[0-9]{1,20}$", "integer"]);
  assert.deepEqual(forms(discord.properties.threadId), ["string ^[0-9]{1,20}$", "integer"]);
  assert.deepEqual(forms(telegram.properties.chatId), [
    "string ^(-?[0-9]{1,16}|@[A-Za-z][A-Za-z0-9_]{3,31})$",
    "integer",
  ]);
  assert.deepEqual(forms(telegram.properties.topicId), ["integer", "string ^[0-9]{1,16}$"]);
  const route = document.components.schemas.Route;
  assert.deepEqual(forms(route.properties.discordRoleIds.items), [
    "string ^[0-9]{1,20}$",
    "integer",
  ]);
  assert.equal(document.components.schemas.RouteDigest.properties.threshold.minimum, 1);
  assert.equal(document.components.schemas.RouteDigest.properties.windowSeconds.minimum, 1);

  const success = (path: string) =>
    document.paths[path].put.responses["200"].content["application/json"].schema.$ref;
  assert.equal(success("/admin/api/routes"), "#/components/schemas/ReplaceRoutesResponse");
  assert.equal(success("/admin/api/groups"), "#/components/schemas/ReplaceGroupsResponse");
  assert.notEqual(
    success("/admin/api/groups/{id}/fragments"),
    "#/components/schemas/ReplaceRoutesResponse",
  );
  assert.notEqual(
    success("/admin/api/groups/{id}/targets"),
    "#/components/schemas/ReplaceRoutesResponse",
  );

  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(operations as Record<string, Operation>)) {
      if (!op.requestBody) continue;
      assert.ok(op.responses["413"], `${method} ${path}: 413`);
      assert.ok(op.responses["408"], `${method} ${path}: 408`);
    }
  }
});

interface Operation {
  requestBody?: unknown;
  responses: Record<string, unknown>;
}
