/** Reading `/gh …` and `/start …` from a message text. */
import assert from "node:assert/strict";
import { parseCommand } from "../../lib/chatops/telegram/command.ts";

Deno.test("commands with and without a bot name, subcommand and the rest", () => {
  assert.deepEqual(parseCommand("/gh"), { name: "gh", subcommand: "", rest: "" });
  assert.deepEqual(parseCommand("/gh Merge  squash "), {
    name: "gh",
    subcommand: "merge",
    rest: "squash",
  });
  assert.deepEqual(parseCommand("/gh@Switchyard_Bot comment first line\nsecond"), {
    name: "gh",
    botName: "switchyard_bot",
    subcommand: "comment",
    rest: "first line\nsecond",
  });
  assert.deepEqual(parseCommand("/start login"), {
    name: "start",
    subcommand: "login",
    rest: "",
  });
  assert.deepEqual(parseCommand("/gh\ncomment x"), {
    name: "gh",
    subcommand: "comment",
    rest: "x",
  });
});

Deno.test("texts that are not our commands", () => {
  for (const text of ["", "gh merge", " /gh merge", "/ghmerge", "/gh@ merge", "/github", "/gh-x"]) {
    assert.equal(parseCommand(text), null, text);
  }
});
