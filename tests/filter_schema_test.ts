import assert from "node:assert/strict";
import { z } from "zod";
import {
  filterNodeSchema,
  formatZodError,
  fragmentSchema,
  groupSchema,
  routeListSchema,
  routeSchema,
} from "../lib/filter/schema.ts";

const route = {
  id: "r1",
  name: "Pushes",
  enabled: true,
  groupId: "g1",
  filters: [{ type: "event", value: "push" }],
  targets: [{ platform: "discord", channelId: "123" }],
};

function problem(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  assert.equal(result.success, false, "the value was accepted");
  return formatZodError(result.error!);
}

Deno.test("a valid route, group and fragment are accepted", () => {
  assert.deepEqual(routeSchema.parse(route), route);
  assert.equal(routeSchema.safeParse({ ...route, filters: [], fallback: true }).success, true);
  assert.equal(
    groupSchema.safeParse({
      id: "g1",
      name: "Team",
      members: [{ userId: "1", login: "ann", role: "owner" }],
      providers: ["github"],
      installationId: 5,
      owners: ["acme"],
    }).success,
    true,
  );
  assert.equal(
    fragmentSchema.safeParse({ id: "f1", groupId: "g1", name: "bugs", node: { all: [] } }).success,
    true,
  );
});

Deno.test("route errors name the field path", () => {
  const body = z.object({ routes: routeListSchema });
  const targets = [{ platform: "discord", channelId: "1" }, { platform: "discord" }];
  assert.equal(
    problem(body, { routes: [route, route, route, { ...route, id: "r4", targets }] }),
    "routes[3].targets[1].channelId: required",
  );
  assert.equal(
    problem(routeSchema, {
      ...route,
      ast: {
        any: [route.filters[0], { all: [] }, {
          not: { type: "field", path: "t", op: "regex", value: "(" },
        }],
      },
    }),
    "ast.any[2].not.value: invalid regex: missing closing ): `(`",
  );
  assert.equal(
    problem(routeSchema, { ...route, filters: [] }),
    "filters: only a fallback route may have no filters (add a filter or an ast)",
  );
  assert.equal(
    problem(routeSchema, { ...route, filters: [{ all: [] }] }),
    'filters[0].type: required ("event" or "field")',
  );
  assert.match(problem(routeSchema, { ...route, id: "Bad Id" }), /^id: must be 1-64 lower-case/);
  assert.equal(problem(routeSchema, { ...route, name: "" }), "name: required");
  assert.equal(problem(routeSchema, { ...route, targets: [] }), "targets: at least one target");
  assert.equal(
    problem(routeSchema, { ...route, targets: Array(11).fill(route.targets[0]) }),
    "targets: at most 10 targets",
  );
  assert.equal(problem(routeSchema, { ...route, colour: "red" }), 'unknown key "colour"');
  assert.equal(
    problem(routeSchema, { ...route, targets: [{ platform: "slack", channelId: "1" }] }),
    'targets[0].platform: must be "discord" or "telegram"',
  );
  assert.equal(
    problem(routeSchema, { ...route, targets: [{ platform: "telegram", chatId: "x" }] }),
    "targets[0].chatId: must be a numeric chat id or an @channel name",
  );
  assert.equal(
    problem(routeListSchema, [route, { ...route }]),
    '[1].id: duplicate route id "r1" in group "g1"',
  );
});

Deno.test("group errors name the field path", () => {
  const group = { id: "g1", name: "Team", members: [{ userId: "1", login: "ann", role: "admin" }] };
  assert.equal(problem(groupSchema, group), "members: at least one owner is required");
  const owner = { userId: "1", login: "ann", role: "owner" };
  assert.equal(
    problem(groupSchema, { ...group, members: [owner], providers: ["gitlab"] }),
    'providers[0]: must be one of "github", "gitea"',
  );
  assert.equal(
    problem(groupSchema, { ...group, members: [owner], installationId: 0 }),
    "installationId: must be a positive integer",
  );
  assert.equal(
    problem(groupSchema, { ...group, members: [{ ...owner, role: "boss" }] }),
    'members[0].role: must be one of "owner", "admin", "viewer"',
  );
});

Deno.test("filter node schema has a JSON Schema for the OpenAPI document", () => {
  const schema = z.toJSONSchema(filterNodeSchema) as Record<string, unknown>;
  assert.ok(JSON.stringify(schema).includes('"all"'));
  assert.ok(z.toJSONSchema(routeSchema, { io: "input" }));
});
