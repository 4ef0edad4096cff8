/** What editing a message came to: a send result, or the message is no longer there. */
import type { SendResult } from "./send_result.ts";

/** A send result for the edit, or `gone`: the message was deleted (post a new one instead). */
export type EditResult = SendResult | { kind: "gone"; httpStatus: number; error: string };

/** The edit as a send result, for callers that do not post anew: `gone` is a refusal. */
export function editAsSendResult(result: EditResult): SendResult {
  return result.kind === "gone"
    ? { kind: "rejected", httpStatus: result.httpStatus, error: result.error }
    : result;
}
