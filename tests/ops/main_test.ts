/**
 * Process-level tests of `main.ts` (start-up validation and graceful shutdown) and of
 * `start.ts`, which `deno task start` runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import freshConfig from "../../fresh.config.ts";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { buildIsStale } from "../../lib/fresh/stale.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function startMain(env: Record<string, string>, entry = "main.ts") {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(PROJECT_ROOT, entry)],
    env: { LOG_LEVEL: "info", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Kills the child if it still runs and releases its output streams. */
async function stopChild(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGKILL");
  } catch { /* already exited */ }
  await child.stderr.cancel().catch(() => {});
  await child.stdout.cancel().catch(() => {});
}

async function readUntil(stream: ReadableStream<Uint8Array>, marker: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  const reader = stream.getReader();
  while (!text.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return text;
}

Deno.test("main.ts refuses a bad setting with one line naming it", async () => {
  const child = startMain({ PORT: "eighty", KV_PATH: ":memory:" });
  const { code, stderr, stdout } = await child.output();
  assert.equal(code, 1);
  const lines = new TextDecoder().decode(stderr).trim().split("\n");
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^Invalid setting PORT: /);
  assert.equal(stdout.length, 0);
});

Deno.test("main.ts on a busy port says so in one line and exits", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  try {
    const child = startMain({ PORT: String(port), HOSTNAME: "127.0.0.1", KV_PATH: ":memory:" });
    const { code, stderr } = await child.output();
    assert.equal(code, 1);
    const lines = new TextDecoder().decode(stderr).trim().split("\n");
    // Start-up warnings are log lines (JSON); the refusal is the one line that is not.
    assert.deepEqual(lines.filter((line) => !line.startsWith('{"time"')), [
      `port ${port} is in use: set PORT to a free port (for example PORT=${port + 1})`,
    ]);
  } finally {
    listener.close();
  }
});

Deno.test("main.ts serves with a KV file and stops cleanly on SIGTERM", async () => {
  const dir = await Deno.makeTempDir();
  const port = freePort();
  const kvPath = join(dir, "nested", "store.kv");
  const child = startMain({ PORT: String(port), HOSTNAME: "127.0.0.1", KV_PATH: kvPath });
  try {
    const started = await readUntil(child.stdout, '"console at ');
    assert.match(started, new RegExp(`"message":"console at http://localhost:${port}/admin"`));
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    assert.deepEqual(await res.json(), { status: "ok" });
    assert.ok((await Deno.stat(kvPath)).isFile);
    child.kill("SIGTERM");
    const rest = await readUntil(child.stdout, '"stopped"');
    assert.match(rest, /"shutting down","signal":"SIGTERM"/);
    assert.equal((await child.status).code, 0);
    const warnings = (await new Response(child.stderr).text()).split("\n")
      .filter((line) => line.includes("TOKEN_ENCRYPTION_KEY is not set"));
    assert.equal(warnings.length, 1, "one line warns that credentials are stored unencrypted");
  } finally {
    await stopChild(child);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts in DEBUG_MODE listens on 127.0.0.1 and refuses a non-loopback HOSTNAME", async () => {
  const refused = await startMain({
    DEBUG_MODE: "true",
    HOSTNAME: "0.0.0.0",
    KV_PATH: ":memory:",
  }).output();
  assert.equal(refused.code, 1);
  const lines = new TextDecoder().decode(refused.stderr).trim().split("\n");
  assert.deepEqual(lines, [
    "Invalid setting HOSTNAME: must be 127.0.0.1, ::1 or localhost while DEBUG_MODE is on, not 0.0.0.0",
  ]);

  const port = freePort();
  const child = startMain({ DEBUG_MODE: "true", PORT: String(port), KV_PATH: ":memory:" });
  try {
    const started = await readUntil(child.stdout, '"listening"');
    assert.match(started, new RegExp(`"address":"http://127\\.0\\.0\\.1:${port}"`));
    child.kill("SIGTERM");
    await child.status;
  } finally {
    await stopChild(child);
  }
});

// Built assets are current when the suite runs through `deno task test`, which builds first;
// the test never builds itself, since other test files read the assets meanwhile.
const assetsStale = buildIsStale(PROJECT_ROOT, freshConfig.buildInputs);
if (assetsStale) {
  console.warn("start.ts test skipped: the built assets are stale (deno task build)");
}

Deno.test({
  name: "start.ts with current assets serves without building them again",
  ignore: assetsStale,
}, async () => {
  const assetMap = join(PROJECT_ROOT, "_fresh", "assets.json");
  const builtAt = (await Deno.stat(assetMap)).mtime?.getTime();
  const port = freePort();
  const child = startMain(
    { PORT: String(port), HOSTNAME: "127.0.0.1", KV_PATH: ":memory:" },
    "start.ts",
  );
  try {
    const started = await readUntil(child.stdout, '"console at ');
    assert.doesNotMatch(started, /built \d+ islands/);
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    assert.deepEqual(await res.json(), { status: "ok" });
    assert.equal((await Deno.stat(assetMap)).mtime?.getTime(), builtAt, "nothing was rebuilt");
    child.kill("SIGTERM");
    assert.equal((await child.status).code, 0);
  } finally {
    await stopChild(child);
  }
});
