/**
 * Where a process's resident memory goes, sampled from `/proc/PID/status` while a benchmark
 * runs: anonymous pages (V8's heap, array buffers, the allocator's), file pages (the binary,
 * mapped files) and shared memory, and for the process itself V8's heap and external memory
 * (array buffers) from `Deno.memoryUsage()`. The breakdown is kept for the sample with the highest RSS.
 */

/** One sample, in MiB. */
export interface MemorySample {
  rss: number;
  anon: number;
  file: number;
  shmem: number;
  /** V8's heap (total and used) and external memory: only when sampling this process. */
  heapTotal?: number;
  heapUsed?: number;
  external?: number;
}

const MIB = 1024 * 1024;

function statusField(status: string, name: string): number {
  return Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
}

/** The resident memory of a process (`"self"` for this one), split by kind. */
export function sampleMemory(pid: number | "self" = "self"): MemorySample {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const sample: MemorySample = {
    rss: statusField(status, "VmRSS"),
    anon: statusField(status, "RssAnon"),
    file: statusField(status, "RssFile"),
    shmem: statusField(status, "RssShmem"),
  };
  if (pid !== "self") return sample;
  const usage = Deno.memoryUsage();
  return {
    ...sample,
    heapTotal: usage.heapTotal / MIB,
    heapUsed: usage.heapUsed / MIB,
    external: usage.external / MIB,
  };
}

/** The peak resident memory (`VmHWM`) a process reached, in MiB. */
export function highWaterMiB(pid: number | "self" = "self"): number {
  return statusField(Deno.readTextFileSync(`/proc/${pid}/status`), "VmHWM");
}

/** Samples a process every `intervalMs` and keeps the sample with the highest RSS. */
export class MemorySampler {
  #peak: MemorySample | null = null;
  readonly #timer: ReturnType<typeof setInterval>;

  /** Samples `pid` every `intervalMs` with `read` (by default from /proc). */
  constructor(
    readonly pid: number | "self" = "self",
    intervalMs = 50,
    readonly read: (pid: number | "self") => MemorySample = sampleMemory,
  ) {
    this.#timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Takes one sample now. */
  sample(): void {
    try {
      const sample = this.read(this.pid);
      if (!this.#peak || sample.rss > this.#peak.rss) this.#peak = sample;
    } catch {
      // The process has ended.
    }
  }

  /** Stops sampling; the sample with the highest RSS. */
  stop(): MemorySample | null {
    clearInterval(this.#timer);
    return this.#peak;
  }
}

/** A sample as one line: `rss 120 MiB = anon 70 + file 45 + shmem 5 (heap 30/20, external 9)`. */
export function describeSample(sample: MemorySample): string {
  const mib = (value: number) => value.toFixed(0);
  const v8 = sample.heapTotal === undefined
    ? ""
    : ` (heap ${mib(sample.heapTotal)}/${mib(sample.heapUsed ?? 0)} used, external ${
      mib(sample.external ?? 0)
    })`;
  return `rss ${mib(sample.rss)} MiB = anon ${mib(sample.anon)} + file ${mib(sample.file)} + ` +
    `shmem ${mib(sample.shmem)}${v8}`;
}

/** Milliseconds of CPU (user and system, all threads) this process has used so far. */
export function cpuMsOfSelf(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
  const ticksPerSecond = 100;
  return (Number(fields[11]) + Number(fields[12])) * 1000 / ticksPerSecond;
}
