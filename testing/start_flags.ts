/**
 * The runtime flags the start tasks run the server with (their `--v8-flags=…`), read from
 * deno.json, so the benchmarks measure the product's settings and not Deno's defaults: the
 * default profile (`deno task start`, no flags: throughput and latency first) and the
 * low-memory profile for small hosts (`deno task start:small`).
 */

const DENO_JSON = new URL("../deno.json", import.meta.url);

/** A memory profile: `default` is `deno task start`, `small` is `deno task start:small`. */
export type MemoryProfile = "default" | "small";

/** The task that starts the server in a profile. */
export function startTaskOf(profile: MemoryProfile): string {
  return profile === "small" ? "start:small" : "start";
}

/** The `--v8-flags=…` argument of a profile's start task (default: `start`), or none. */
export function startV8Flags(profile: MemoryProfile = "default"): string[] {
  const config = JSON.parse(Deno.readTextFileSync(DENO_JSON)) as {
    tasks: Record<string, string>;
  };
  return v8FlagsOf(config.tasks[startTaskOf(profile)] ?? "");
}

/** The `--v8-flags=…` arguments of a task's command that runs the server (`start.ts` or `main.ts`). */
export function v8FlagsOf(task: string): string[] {
  const command = task.split("&&").find((part) => /\b(start|main)\.ts\b/.test(part)) ?? "";
  return command.trim().split(/\s+/).filter((arg) => arg.startsWith("--v8-flags="));
}

const APPLIED = "SWITCHYARD_BENCH_START_FLAGS";

/**
 * Runs `script` again in a child process with the start task's flags, unless this process is
 * that child; the child's output is this process's. Resolves with the child's exit code, or
 * null when this process already runs with the flags and should do the work itself.
 */
export async function rerunWithStartFlags(script: URL): Promise<number | null> {
  if (Deno.env.get(APPLIED) === "1") return null;
  const flags = startV8Flags();
  if (flags.length === 0) return null;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...flags, script.pathname, ...Deno.args],
    env: { [APPLIED]: "1" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const stop = () => child.kill("SIGTERM");
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  const { code } = await child.status;
  Deno.removeSignalListener("SIGTERM", stop);
  Deno.removeSignalListener("SIGINT", stop);
  return code;
}
