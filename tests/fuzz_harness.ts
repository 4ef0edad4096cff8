/**
 * The fuzzing harness (no tests here): how many cases a family runs (`FUZZ_RUNS`, a few
 * hundred by default, 10,000 under `deno task fuzz`), and the invariant every generated request
 * is held to: the app answers (no crash), never with a 5xx (but the 503 that says a feature is
 * not configured), and a refused request (4xx) leaves the store exactly as it was (same keys,
 * same versionstamps).
 */
import type { Kv } from "../lib/store/backend/types.ts";
import fc from "fast-check";

/** How the keys of the rejected-requests list begin in a snapshot. */
const REJECTIONS_KEY = '["rejections",';
import { snapshotChanges, snapshotStore } from "../testing/store_snapshot.ts";

/** Cases per family: FUZZ_RUNS, or the normal test run's default. */
export const FUZZ_RUNS = Math.max(1, Number(Deno.env.get("FUZZ_RUNS") ?? "") || 150);

/** fast-check's settings for one family: FUZZ_RUNS cases, FUZZ_SEED to replay a failure. */
export function fuzzParameters<T>(): fc.Parameters<T> {
  const seed = Deno.env.get("FUZZ_SEED");
  return { numRuns: FUZZ_RUNS, ...(seed ? { seed: Number(seed) } : {}) };
}

/** An app under test: its fetch handler and its store. */
export interface FuzzApp extends AsyncDisposable {
  kv: Kv;
  /** The app's log lines, when captured: a failure shows the last error. */
  lines?: Record<string, unknown>[];
  fetch(request: Request): Response | Promise<Response>;
}

/** A store grown past this many keys (by accepted requests) is replaced by a fresh app. */
const RENEW_AFTER_KEYS = 300;

/**
 * The current app of a family, renewed when its store has grown, so each case's snapshots
 * stay small however many cases run.
 */
export class FuzzBench implements AsyncDisposable {
  #app: FuzzApp | null = null;
  /** How many answers had each status (printed with FUZZ_STATS=1). */
  readonly statuses = new Map<number, number>();

  constructor(private readonly start: () => Promise<FuzzApp>, readonly name = "") {}

  /**
   * Sends `request` and checks the invariant; answers the status and body text. `allow` names
   * the keys a refusal may still change (a single-use OAuth state consumed by a failed sign-in);
   * a refused webhook may always add to the rejected-requests list, whose bounds
   * `tests/ingest/ingest_rejections_test.ts` checks.
   */
  async send(
    request: Request | ((app: FuzzApp) => Request | Promise<Request>),
    label = "",
    allow: (key: string) => boolean = () => false,
  ) {
    this.#app ??= await this.start();
    const app = this.#app;
    const before = await snapshotStore(app.kv);
    const req = typeof request === "function" ? await request(app) : request;
    const sent = (await req.clone().text()).slice(0, 600);
    const what = `${req.method} ${new URL(req.url).pathname}${label ? ` (${label})` : ""}` +
      ` with body ${JSON.stringify(sent)}`;
    let res: Response;
    const started = performance.now();
    try {
      res = await app.fetch(req);
    } catch (error) {
      throw new Error(`${what}: the app threw ${error}`);
    }
    const text = await res.text();
    const elapsed = performance.now() - started;
    if (Deno.env.get("FUZZ_TRACE")) console.log(`${res.status} ${text.slice(0, 120)}`);
    if (Deno.env.get("FUZZ_STATS") && elapsed > 1_000) {
      console.log(`slow: ${what} answered ${res.status} after ${Math.round(elapsed)} ms`);
    }
    this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500 && !isNotConfigured(res.status, text)) {
      const logged = app.lines?.findLast((line) => line.level === "error");
      throw new Error(
        `${what}: answered ${res.status} ${text.slice(0, 300)}; logged ${JSON.stringify(logged)}`,
      );
    }
    const after = await snapshotStore(app.kv);
    if (res.status >= 400) {
      const changed = snapshotChanges(before, after).filter((key) =>
        !allow(key) && !key.startsWith(REJECTIONS_KEY)
      );
      if (changed.length > 0) {
        throw new Error(`${what}: refused with ${res.status} but changed ${changed.join(", ")}`);
      }
    }
    if (after.size > RENEW_AFTER_KEYS) await this.renew();
    return { status: res.status, text };
  }

  /** Disposes of the current app; the next request starts a fresh one. */
  async renew(): Promise<void> {
    const app = this.#app;
    this.#app = null;
    await app?.[Symbol.asyncDispose]();
  }

  [Symbol.asyncDispose](): Promise<void> {
    if (Deno.env.get("FUZZ_STATS")) {
      const counts = [...this.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
      console.log(`${this.name || "fuzz"} answers: ${counts.join(", ")}`);
    }
    return this.renew();
  }
}

/**
 * A 503 for a feature whose settings are absent: the answer the contract asks for, not a
 * failure (`{ error: "<feature> is not configured" }`, or the page saying so).
 */
function isNotConfigured(status: number, text: string): boolean {
  return status === 503 && /is not configured/.test(text);
}

/** Runs a property over `arbitrary` with the family's settings. */
export async function fuzz<T>(
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<unknown>,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      await check(value);
    }),
    fuzzParameters(),
  );
}
