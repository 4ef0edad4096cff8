/**
 * The chat calls of one piece of lane work (a unit's attempt, a digest's close): each call is
 * reserved from the platform's rate limiter before it is made. The lane reserves a unit's first
 * call before it marks the unit as sending; every further call (a thread started before the
 * post into it, a card edited before its notice, a digest written when its window ends)
 * reserves its own, waiting up to one longest sleep, or answers `rate_limited` without a
 * request, so the retry policy brings the work back when the limit allows.
 */
import type { PlatformAdapter } from "../platform/adapter.ts";
import type { EditResult } from "../platform/edit_result.ts";
import { type Pacing, waitForTurn } from "../platform/pacing.ts";
import type { SendResult } from "../platform/send_result.ts";
import type { Target } from "../types.ts";

/** The platform calls of one piece of lane work, each through the rate limiter. */
export interface ChatCalls {
  /** The platform's adapter (its rules; calls go through the methods below). */
  readonly adapter: PlatformAdapter;
  post(target: Target, body: unknown, id: string): Promise<SendResult>;
  edit(target: Target, messageId: string, body: unknown): Promise<EditResult>;
  startThread(target: Target, messageId: string, name: string): Promise<SendResult>;
}

/**
 * Calls through `adapter`, each reserved first; `reserved` says the lane already reserved the
 * first one.
 */
export function chatCalls(pacing: Pacing, adapter: PlatformAdapter, reserved: boolean): ChatCalls {
  let held = reserved;
  /** Reserves a call into `target`: null when it may go now, else why not. */
  const reserve = async (target: Target): Promise<SendResult | null> => {
    if (held) {
      held = false;
      return null;
    }
    return await waitForTurn(pacing, (maxWaitMs) => adapter.reserve(target, maxWaitMs));
  };
  return {
    adapter,
    post: async (target, body, id) => await reserve(target) ?? adapter.post(target, body, id),
    edit: async (target, messageId, body) =>
      await reserve(target) ?? adapter.edit(target, messageId, body),
    startThread: async (target, messageId, name) =>
      await reserve(target) ?? adapter.startThread(target, messageId, name),
  };
}
