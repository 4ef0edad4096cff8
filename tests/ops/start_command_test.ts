/**
 * The sign-in page's debug-mode command is written the way Switchyard was started: through
 * npx or with Deno installed, with `PORT` when it is not the default.
 */
import assert from "node:assert/strict";
import { debugStartCommand, startedThroughNpx } from "../../lib/start_command.ts";
import { startTestApp } from "../_helpers.ts";

Deno.test("start command: npx is recognized by npm's environment or the path of its Deno", () => {
  assert.equal(startedThroughNpx({ npm_command: "exec" }, "/usr/bin/deno"), true);
  assert.equal(
    startedThroughNpx({}, "/home/a/.npm/_npx/4f2b/node_modules/@deno/linux-x64/deno"),
    true,
  );
  assert.equal(startedThroughNpx({}, "/home/a/.deno/bin/deno"), false);
});

Deno.test("start command: the npx form names the running Deno, and PORT only when not 8000", () => {
  assert.equal(
    debugStartCommand({ port: 8000, npx: false, denoVersion: "2.9.6" }),
    "DEBUG_MODE=true deno task start",
  );
  assert.equal(
    debugStartCommand({ port: 8123, npx: true, denoVersion: "2.9.6" }),
    "DEBUG_MODE=true PORT=8123 npx -y deno@2.9.6 task -q start",
  );
});

Deno.test("sign-in page: the command keeps the port the server runs on", async () => {
  await using t = await startTestApp({ PORT: "8123" });
  const html = await (await t.fetch("/admin/login", { headers: { accept: "text/html" } })).text();
  const command = html.match(/data-testid="start-command">([^<]*)</)?.[1] ?? "";
  assert.match(
    command,
    /^DEBUG_MODE=true PORT=8123 (deno task start|npx -y deno@[\d.]+ task -q start)$/,
  );
  assert.match(html, /http:\/\/localhost:8123\/admin/);
});
