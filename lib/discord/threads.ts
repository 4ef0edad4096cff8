/**
 * Which channel a Discord thread belongs to, read from `GET /channels/{thread}` as the bot and
 * remembered in process (a thread never moves to another channel). Target ownership allows
 * channels; a thread is allowed through its parent, so the delivery worker asks here before
 * it posts into a thread.
 */
import type { SendResult } from "../platform/send_result.ts";
import { callDiscord, type DiscordSettings } from "./api.ts";
import type { PacedCall } from "./dm.ts";
import { discordResultOf } from "./send.ts";

/** What Discord said about a thread id. */
type ThreadLookup =
  /** A thread, in channel `parentId`. */
  | { kind: "thread"; parentId: string }
  /** A channel, but not a thread. */
  | { kind: "not_thread" }
  /** No answer to rely on: the call's result, for the retry policy. */
  | { kind: "failed"; result: SendResult };

/** Looks up the parent channels of threads. */
interface ThreadParents {
  /** The channel of `threadId`, asked through `paced` when it is not remembered. */
  lookup(threadId: string, paced: PacedCall): Promise<ThreadLookup>;
}

/** Channel types of threads: announcement, public and private threads. */
const THREAD_TYPES = new Set([10, 11, 12]);
const MAX_REMEMBERED = 10_000;

interface ChannelBody {
  id?: string;
  type?: unknown;
  parent_id?: unknown;
}

/** A thread-parent lookup with an in-process memory of the threads it has seen. */
export function createThreadParents(settings: DiscordSettings): ThreadParents {
  const parents = new Map<string, string | null>();
  const remember = (threadId: string, parentId: string | null) => {
    if (parents.size >= MAX_REMEMBERED) parents.delete(parents.keys().next().value!);
    parents.set(threadId, parentId);
  };
  return {
    async lookup(threadId, paced) {
      if (!parents.has(threadId)) {
        let body: ChannelBody | null = null;
        const result = await paced(async () => {
          const outcome = await callDiscord<ChannelBody>(
            settings,
            "GET",
            `/channels/${encodeURIComponent(threadId)}`,
          );
          if (outcome.kind === "ok") body = outcome.body;
          return discordResultOf(outcome);
        });
        if (result.kind !== "sent") {
          return {
            kind: "failed",
            result: { ...result, error: `thread ${threadId}: ${result.error}` },
          };
        }
        const read = body as ChannelBody | null;
        const isThread = typeof read?.type === "number" && THREAD_TYPES.has(read.type) &&
          typeof read.parent_id === "string";
        remember(threadId, isThread ? read.parent_id as string : null);
      }
      const parentId = parents.get(threadId);
      return parentId ? { kind: "thread", parentId } : { kind: "not_thread" };
    },
  };
}
