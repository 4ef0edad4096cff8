/**
 * Helpers the benchmarks that start servers share (not a benchmark itself: files starting with
 * `_` are not run): a free port on 127.0.0.1, waiting for a started server to answer, and the
 * median of the rounds.
 */

/** A TCP port on 127.0.0.1 nobody listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Resolves once `GET url` answers 2xx; throws when `child` exits first or `timeoutMs` passes.
 */
export async function waitReady(
  url: string,
  child: Deno.ChildProcess,
  timeoutMs: number,
): Promise<void> {
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited) {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(exited ? "the server exited before it was ready" : "the server never started");
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
