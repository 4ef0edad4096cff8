import assert from "node:assert/strict";
import { describeSample, MemorySampler, sampleMemory } from "../testing/memory_sample.ts";
import { startV8Flags, v8FlagsOf } from "../testing/start_flags.ts";

Deno.test("the benchmarks take the V8 flags of the command that runs the server", () => {
  assert.deepEqual(
    v8FlagsOf(
      "deno run -A dev.ts build --if-stale && deno run -A --v8-flags=--a=2,--b main.ts",
    ),
    ["--v8-flags=--a=2,--b"],
  );
  assert.deepEqual(v8FlagsOf("deno run -A --v8-flags=--a dev.ts build && deno run -A main.ts"), []);
  assert.deepEqual(v8FlagsOf("deno run -A dev.ts watch"), []);
  assert.deepEqual(v8FlagsOf("deno run -A --v8-flags=--c start.ts"), ["--v8-flags=--c"]);
});

Deno.test("the start task's flags are the ones the benchmarks run the server with", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const flags = startV8Flags();
  assert.deepEqual(flags.length, 1);
  assert.ok(config.tasks.start.includes(`${flags[0]} start.ts`));
});

Deno.test("a memory sample splits this process's resident memory", () => {
  const sample = sampleMemory();
  assert.ok(sample.rss > 0 && sample.anon > 0 && sample.file > 0);
  assert.ok(Math.abs(sample.anon + sample.file + sample.shmem - sample.rss) <= 1);
  assert.ok((sample.heapUsed ?? 0) > 0 && (sample.heapTotal ?? 0) >= (sample.heapUsed ?? 0));
  assert.ok(describeSample(sample).startsWith(`rss ${sample.rss.toFixed(0)} MiB = anon`));
});

Deno.test("the sampler keeps the sample with the highest RSS", () => {
  const sampler = new MemorySampler("self", 60_000);
  const before = sampleMemory().rss;
  sampler.sample();
  const held = new Uint8Array(32 * 1024 * 1024).fill(1);
  sampler.sample();
  const peak = sampler.stop();
  assert.ok(peak !== null && peak.rss >= before + 24 && held[0] === 1);
});
