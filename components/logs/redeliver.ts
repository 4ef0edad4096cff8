/** Redelivery from the browser: `POST /admin/api/delivery/:deliveryId/redeliver`, one by one. */
import { adminApi } from "../api/admin_api.ts";
import { showToast } from "../layout/toast.ts";

/** What sending some deliveries again came to. */
export interface RedeliverSummary {
  /** How many deliveries were asked for. */
  deliveries: number;
  /** Log ids of the units put back in their queues. */
  requeued: string[];
  /** Log ids of failed units whose rendered message has expired. */
  expired: string[];
  /** Deliveries the API refused, with its reason. */
  errors: { deliveryId: string; message: string }[];
}

async function redeliverOne(deliveryId: string) {
  const answer = await adminApi("POST /admin/api/delivery/{deliveryId}/redeliver", {
    params: { deliveryId },
  });
  return answer.data;
}

/** Sends the failed and dead units of each delivery again; never throws. */
export async function redeliverAll(deliveryIds: readonly string[]): Promise<RedeliverSummary> {
  const summary: RedeliverSummary = {
    deliveries: deliveryIds.length,
    requeued: [],
    expired: [],
    errors: [],
  };
  for (const deliveryId of deliveryIds) {
    try {
      const result = await redeliverOne(deliveryId);
      summary.requeued.push(...result.requeued);
      summary.expired.push(...result.expired);
    } catch (error) {
      summary.errors.push({ deliveryId, message: (error as Error).message });
    }
  }
  return summary;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The sentence a redelivery's result shows. */
export function redeliverMessage(summary: RedeliverSummary): string {
  const parts: string[] = [];
  if (summary.requeued.length > 0) {
    const deliveries = summary.deliveries - summary.errors.length;
    parts.push(
      `Re-queued ${count(summary.requeued.length, "message", "messages")} of ${
        count(deliveries, "delivery", "deliveries")
      }.`,
    );
  }
  if (summary.expired.length > 0) {
    parts.push(
      `${
        count(summary.expired.length, "message", "messages")
      } could not be sent again: the rendered text expired.`,
    );
  }
  if (parts.length === 0 && summary.errors.length === 0) {
    parts.push("Nothing to send again: none of its messages failed.");
  }
  for (const error of summary.errors) parts.push(`${error.deliveryId}: ${error.message}`);
  return parts.join(" ");
}

/** Sends the deliveries again and says how it went in the console's status region. */
export async function redeliverAndReport(
  deliveryIds: readonly string[],
): Promise<RedeliverSummary> {
  const summary = await redeliverAll(deliveryIds);
  showToast(
    redeliverMessage(summary),
    summary.errors.length > 0 ? "error" : summary.requeued.length > 0 ? "success" : "info",
  );
  return summary;
}
