import assert from "node:assert/strict";
import { z } from "zod";
import {
  filterNodeSchema,
  formatZodError,
  fragmentSchema,
  groupSchema,
  routeListSchema,
  routeSchema,
  targetRefSchema,
  targetSchema,
} from "../../lib/model/schema.ts";

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

Deno.test("targets: ids written as numbers or numeric strings are stored in one canonical form", () => {
  const cases: [unknown, unknown][] = [
    [{ platform: "discord", channelId: 77 }, { platform: "discord", channelId: "77" }],
    [{ platform: "discord", channelId: "0077", threadId: 78 }, {
      platform: "discord",
      channelId: "77",
      threadId: "78",
    }],
    [{ platform: "discord", channelId: "1234567890123456789" }, {
      platform: "discord",
      channelId: "1234567890123456789",
    }],
    [{ platform: "telegram", chatId: -1001234567890, topicId: "42" }, {
      platform: "telegram",
      chatId: "-1001234567890",
      topicId: 42,
    }],
    [{ platform: "telegram", chatId: "-1001234567890", topicId: 42 }, {
      platform: "telegram",
      chatId: "-1001234567890",
      topicId: 42,
    }],
    [{ platform: "telegram", chatId: "00123" }, { platform: "telegram", chatId: "123" }],
    [{ platform: "telegram", chatId: "@Release_Notes" }, {
      platform: "telegram",
      chatId: "@Release_Notes",
    }],
  ];
  for (const [input, stored] of cases) {
    assert.deepEqual(targetSchema.parse(input), stored, JSON.stringify(input));
  }
  assert.deepEqual(routeSchema.parse({ ...route, discordRoleIds: [5, "06"] }).discordRoleIds, [
    "5",
    "6",
  ]);
  assert.deepEqual(targetRefSchema.parse({ platform: "telegram", chatId: 5 }), {
    platform: "telegram",
    chatId: "5",
  });
});

Deno.test("targets: ids that cannot be normalized are refused, naming the field", () => {
  const refused: [unknown, string][] = [
    [
      { platform: "discord", channelId: 12345678901234567890 },
      "channelId: must be a Discord id as a string (this number is too large to keep its digits)",
    ],
    [{ platform: "discord", channelId: "0" }, "channelId: must be a Discord id (digits)"],
    [
      { platform: "discord", channelId: "1".repeat(21) },
      "channelId: must be a Discord id (digits)",
    ],
    [{ platform: "discord", channelId: 1.5 }, "channelId: must be a Discord id (digits)"],
    [{ platform: "discord", channelId: true }, "channelId: must be a Discord id (digits)"],
    [{ platform: "discord" }, "channelId: required"],
    [
      { platform: "telegram", chatId: "-0" },
      "chatId: must be a numeric chat id or an @channel name",
    ],
    [
      { platform: "telegram", chatId: "1e5" },
      "chatId: must be a numeric chat id or an @channel name",
    ],
    [
      { platform: "telegram", chatId: 2 ** 60 },
      "chatId: must be a numeric chat id or an @channel name",
    ],
    [{ platform: "telegram", chatId: "1", topicId: "0" }, "topicId: must be a positive integer"],
    [{ platform: "telegram", chatId: "1", topicId: "-3" }, "topicId: must be a positive integer"],
    [{ platform: "telegram", chatId: "1", topicId: 2.5 }, "topicId: must be a positive integer"],
    [{ platform: "telegram", chatId: "1", topicId: null }, "topicId: must be a positive integer"],
  ];
  for (const [input, message] of refused) {
    assert.equal(problem(targetSchema, input), message, JSON.stringify(input));
  }
  assert.equal(
    problem(targetRefSchema, { platform: "telegram", chatId: "1", topicId: 4 }),
    'unknown key "topicId"',
    "an allowlist names the chat, not a topic",
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
