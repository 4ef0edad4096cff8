import assert from "node:assert/strict";
import { describeSample, MemorySampler, sampleMemory } from "../../testing/memory_sample.ts";
import { startV8Flags, v8FlagsOf } from "../../testing/start_flags.ts";

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

Deno.test("the start tasks' flags are the ones the benchmarks run the server with", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assert.deepEqual(startV8Flags(), [], "`deno task start` favours throughput: no V8 flags");
  assert.equal(config.tasks.start, "deno run -A start.ts");
  const small = startV8Flags("small");
  assert.deepEqual(small, ["--v8-flags=--max-semi-space-size=2,--heap-growing-percent=10"]);
  assert.ok(config.tasks["start:small"].includes(`${small[0]} start.ts`));
});

Deno.test("a memory sample splits this process's resident memory", () => {
  const sample = sampleMemory();
  assert.ok(sample.rss > 0 && sample.anon > 0 && sample.file > 0);
  assert.ok(Math.abs(sample.anon + sample.file + sample.shmem - sample.rss) <= 1);
  assert.ok((sample.heapUsed ?? 0) > 0 && (sample.heapTotal ?? 0) >= (sample.heapUsed ?? 0));
  assert.ok(describeSample(sample).startsWith(`rss ${sample.rss.toFixed(0)} MiB = anon`));
});

Deno.test("the sampler keeps the sample with the highest RSS", () => {
  // Test files share this process, so its own RSS moves with them: the readings are given.
  const readings = [40, 95, 60].map((rss) => ({ rss, anon: rss, file: 0, shmem: 0 }));
  const sampler = new MemorySampler("self", 60_000, () => readings.shift()!);
  for (let i = 0; i < 3; i++) sampler.sample();
  assert.equal(sampler.stop()?.rss, 95);
  const ended = new MemorySampler(1, 60_000, () => {
    throw new Error("no such process");
  });
  ended.sample();
  assert.equal(ended.stop(), null, "a process that has ended gives no sample");
});
