/**
 * Which channel a Discord thread belongs to, read from `GET /channels/{thread}` as the bot and
 * remembered in process (a thread never moves to another channel). Target ownership allows
 * channels; a thread is allowed through its parent, so the delivery worker asks here before
 * it posts into a thread.
 */
import type { SendResult } from "../platform/send_result.ts";
import { refusalResult } from "../platform/send_result.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";

/** What Discord said about a thread id. */
type ThreadLookup =
  /** A thread, in channel `parentId`. */
  | { kind: "thread"; parentId: string }
  /** A channel, but not a thread. */
  | { kind: "not_thread" }
  /** No answer to rely on: the call's result, for the retry policy. */
  | { kind: "failed"; result: SendResult };

/** Looks up the parent channels of threads. */
export interface ThreadParents {
  lookup(threadId: string): Promise<ThreadLookup>;
}

/** Channel types of threads: announcement, public and private threads. */
const THREAD_TYPES = new Set([10, 11, 12]);
const MAX_REMEMBERED = 10_000;
const DEFAULT_RETRY_AFTER_MS = 1_000;
const MAX_RETRY_AFTER_MS = 60_000;

interface ChannelBody {
  type?: unknown;
  parent_id?: unknown;
  retry_after?: unknown;
}

function retryAfterMs(body: ChannelBody | null): number {
  const seconds = body?.retry_after;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0
    ? Math.min(Math.ceil(seconds * 1000), MAX_RETRY_AFTER_MS)
    : DEFAULT_RETRY_AFTER_MS;
}

/** A thread-parent lookup with an in-process memory of the threads it has seen. */
export function createThreadParents(settings: DiscordSettings): ThreadParents {
  const parents = new Map<string, string | null>();
  const remember = (threadId: string, parentId: string | null) => {
    if (parents.size >= MAX_REMEMBERED) parents.delete(parents.keys().next().value!);
    parents.set(threadId, parentId);
  };
  return {
    async lookup(threadId) {
      if (!parents.has(threadId)) {
        const outcome = await callDiscord<ChannelBody>(
          settings,
          "GET",
          `/channels/${encodeURIComponent(threadId)}`,
        );
        if (outcome.kind === "unreachable") {
          return { kind: "failed", result: { kind: "retryable", error: outcome.message } };
        }
        if (outcome.kind === "refused") {
          const error = `thread ${threadId}: ${outcome.message}`;
          const result: SendResult = outcome.status === 429
            ? {
              kind: "rate_limited",
              httpStatus: 429,
              retryAfterMs: retryAfterMs(outcome.body as ChannelBody | null),
              global: false,
              error,
            }
            : refusalResult(outcome.status, error);
          return { kind: "failed", result };
        }
        const body = outcome.body;
        const isThread = typeof body?.type === "number" && THREAD_TYPES.has(body.type) &&
          typeof body.parent_id === "string";
        remember(threadId, isThread ? body.parent_id as string : null);
      }
      const parentId = parents.get(threadId);
      return parentId ? { kind: "thread", parentId } : { kind: "not_thread" };
    },
  };
}
