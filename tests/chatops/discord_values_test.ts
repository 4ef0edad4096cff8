import assert from "node:assert/strict";
import * as Discord from "discord-api-types/v10";
import * as values from "../../lib/format/discord_values.ts";

Deno.test("discord values: every number equals discord-api-types' enum member", () => {
  const enums = Discord as unknown as Record<string, Record<string, unknown>>;
  for (const [name, members] of Object.entries(values)) {
    for (const [member, value] of Object.entries(members)) {
      assert.equal(value, enums[name][member], `${name}.${member}`);
    }
  }
});
