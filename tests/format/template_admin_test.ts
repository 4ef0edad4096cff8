/**
 * Message templates in the admin API: a route's template is checked when the route is saved
 * (a template that does not parse answers 400 naming the part, line and column), stored and
 * listed back, and described in the OpenAPI document; the preview renders with a template or
 * answers the built-in messages with the template's error.
 */
import assert from "node:assert/strict";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { LogDetail } from "../../components/logs/LogDetail.tsx";
import { TEMPLATE_BODY_MAX_LENGTH } from "../../lib/limits.ts";
import { getRoutes } from "../../lib/store/config/routes.ts";
import { allowTarget, route, sendLog, startAdminApp, storeSendLogs } from "../_admin_helpers.ts";
import { sampleJson } from "../_ingest_helpers.ts";

const ALPHA_ROUTES = "/admin/api/groups/alpha/routes";
const TEMPLATE = {
  title: "Push to {{repository.full_name}}",
  body: "{{#each commits 3}}{{code id}}{{/each}}",
};

Deno.test("routes: a template is stored and listed back as saved", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  const saved = await app.call("admin", "PUT", ALPHA_ROUTES, {
    body: { routes: [route("alpha", "r1", { template: TEMPLATE })] },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const listed = await app.call("viewer", "GET", ALPHA_ROUTES);
  assert.deepEqual(listed.body.routes[0].template, TEMPLATE);
  assert.deepEqual((await getRoutes(app.kv)).routes[0].template, TEMPLATE);
});

Deno.test("routes: a template that does not parse, or is too long, is refused with the reason", async () => {
  await using app = await startAdminApp();
  await allowTarget(app.kv, "alpha");
  const cases: [unknown, string][] = [
    [
      { body: "Hello\n{{#if sender}}{{sender.login}}" },
      "routes[0].template.body: line 2, column 1: {{#if}} is not closed (missing {{/if}})",
    ],
    [
      { title: "{{truncate title}}", body: "ok" },
      'routes[0].template.title: line 1, column 3: "truncate" takes 2 arguments',
    ],
    [
      { body: "{{$.__proto__.x}}" },
      'routes[0].template.body: line 1, column 3: invalid JSONPath: property "__proto__" is not ' +
      'allowed in "$.__proto__.x"',
    ],
    [{ body: "" }, "routes[0].template.body: required"],
    [{ title: "t" }, "routes[0].template.body: required"],
    [
      { body: "x".repeat(TEMPLATE_BODY_MAX_LENGTH + 1) },
      `routes[0].template.body: at most ${TEMPLATE_BODY_MAX_LENGTH} characters`,
    ],
    [{ body: "x", footer: "y" }, 'routes[0].template: unknown key "footer"'],
    ["{{x}}", "routes[0].template: expected object"],
  ];
  for (const [template, error] of cases) {
    const answer = await app.call("admin", "PUT", ALPHA_ROUTES, {
      body: { routes: [{ ...route("alpha", "r1"), template }] },
    });
    assert.equal(answer.status, 400, error);
    assert.deepEqual(answer.body, { error });
  }
  assert.deepEqual((await getRoutes(app.kv)).routes, [], "nothing was stored");
});

Deno.test("openapi: the route and the preview describe the template", async () => {
  await using app = await startAdminApp();
  const document = await (await app.t.fetch("/openapi.json")).json();
  const text = JSON.stringify(document);
  assert.ok(text.includes('"template"'));
  const route = document.components.schemas.Route;
  assert.deepEqual(route.properties.template.required, ["body"]);
  assert.equal(route.properties.template.properties.body.maxLength, TEMPLATE_BODY_MAX_LENGTH);
});

Deno.test("preview: renders with a template, or answers the built-in messages and the error", async () => {
  await using app = await startAdminApp();
  const payload = await sampleJson("pull_request.opened");
  const plain = await app.call("viewer", "POST", "/admin/api/preview", {
    body: { event: "pull_request", payload },
  });
  const templated = await app.call("viewer", "POST", "/admin/api/preview", {
    body: {
      event: "pull_request",
      payload,
      template: { title: "PR {{number}}", body: "{{bold sender.login}} opened it" },
    },
  });
  assert.equal(templated.status, 200);
  assert.equal(templated.body.templateError, undefined);
  const embed = templated.body.discord.embeds[0];
  const { login } = payload.sender as { login: string };
  assert.equal(embed.title, `PR ${payload.number}`);
  assert.equal(embed.description, `**${login}** opened it`);
  assert.ok(templated.body.telegram.text.includes(`<b>${login}</b> opened it`));

  const broken = await app.call("viewer", "POST", "/admin/api/preview", {
    body: { event: "pull_request", payload, template: { body: "{{#each commits}}" } },
  });
  assert.equal(broken.status, 200);
  assert.equal(
    broken.body.templateError,
    "template body: line 1, column 1: {{#each}} is not closed (missing {{/each}})",
  );
  const { timestamp: _at, ...builtIn } = plain.body.discord.embeds[0];
  const { timestamp: _then, ...fallback } = broken.body.discord.embeds[0];
  assert.deepEqual(fallback, builtIn, "the built-in message, as delivery would send it");
  assert.equal(broken.body.telegram.text, plain.body.telegram.text);

  const tooLong = await app.call("viewer", "POST", "/admin/api/preview", {
    body: { payload, template: { body: "x".repeat(TEMPLATE_BODY_MAX_LENGTH + 1) } },
  });
  assert.equal(tooLong.status, 400);
  assert.deepEqual(tooLong.body, {
    error: `template.body: at most ${TEMPLATE_BODY_MAX_LENGTH} characters`,
  });
});

Deno.test("logs: a template's error is in the send log's API answer, its search and its details", async () => {
  await using app = await startAdminApp();
  const templateError =
    "template body: step budget exceeded (more than 100000 steps for one event)";
  const log = sendLog(Date.now(), { templateError });
  await storeSendLogs(app.kv, [log, sendLog(Date.now() - 1000)]);
  const found = await app.call("viewer", "GET", "/admin/api/logs?q=budget%20exceeded");
  assert.equal(found.status, 200);
  assert.deepEqual(found.body.items.map((item: { id: string }) => item.id), [log.id]);
  assert.equal(found.body.items[0].templateError, templateError);
  const html = renderToString(h(LogDetail, { log }));
  assert.ok(html.includes("Template error"));
  assert.ok(html.includes(`${templateError} (the built-in message was sent)`));
});
