/**
 * The PostgreSQL client (`npm:postgres`): one pool per store, and the translation of its
 * errors. Errors that mean the database cannot be reached become {@link StoreUnavailableError};
 * a serialization failure or deadlock is recognisable so a commit can be tried again.
 */
import postgres from "postgres";
import { StoreUnavailableError } from "../errors.ts";

/** A pooled PostgreSQL client. */
export type Sql = postgres.Sql;

/** The longest wait, in seconds, before a connection that failed is tried again. */
const MAX_RECONNECT_DELAY_S = 0.5;

/**
 * Seconds to wait before connecting again after `failures` failed connections in a row. The
 * client's own default grows to 20 s, and queries wait for it: during an outage the ingress would
 * hold senders that long instead of answering 503 at once, and would see the database back late.
 */
function reconnectDelay(failures: number): number {
  return Math.min(0.01 * 2 ** failures, MAX_RECONNECT_DELAY_S);
}

/** Opens a pool of at most `poolSize` connections (nothing connects before the first query). */
export function openPool(url: string, poolSize: number): Sql {
  return postgres(url, {
    max: poolSize,
    onnotice: () => {},
    connect_timeout: 10,
    idle_timeout: 60,
    backoff: reconnectDelay,
  });
}

/** Network error codes of a connection that failed or dropped. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** PostgreSQL error codes of a server that is shutting down, starting or out of connections. */
const SERVER_UNAVAILABLE = /^(08...|57P0[1-3]|53300|53400)$/;

/** True when `error` means the database cannot be reached right now. */
function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SERVER_UNAVAILABLE.test(code))) {
    return true;
  }
  return error.name === "ConnectionRefused" || error.name === "ConnectionReset" ||
    error.name === "BrokenPipe" || error.name === "TimedOut";
}

/** True for a serialization failure or a deadlock: the transaction can be run again. */
export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40001" || code === "40P01";
}

/** Runs `operation`, turning a connection failure into {@link StoreUnavailableError}. */
export async function reachable<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isConnectionError(error)) throw new StoreUnavailableError(error);
    throw error;
  }
}
