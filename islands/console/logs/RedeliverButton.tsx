import { useState } from "preact/hooks";
import { redeliverAll, redeliverMessage } from "../../../components/logs/redeliver.ts";
import { RedeliverDialog } from "../../../components/logs/RedeliverDialog.tsx";
import { Toasts, useToasts } from "../../../components/logs/Toasts.tsx";
import { PRIMARY_BUTTON } from "../../../components/logs/ui.ts";

/** Sends one delivery's failed units again, after a confirmation; the result in a status message. */
export default function RedeliverButton(props: { deliveryId: string }) {
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const toasts = useToasts();
  const redeliver = async (deliveryIds: string[]) => {
    setBusy(true);
    try {
      const summary = await redeliverAll(deliveryIds);
      setDone(summary.requeued.length > 0);
      toasts.show(
        redeliverMessage(summary),
        summary.errors.length > 0 ? "error" : summary.requeued.length > 0 ? "success" : "info",
      );
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };
  return (
    <>
      <button
        type="button"
        class={PRIMARY_BUTTON}
        disabled={busy || done}
        onClick={() => setConfirming([props.deliveryId])}
      >
        {done ? "Re-queued" : "Redeliver"}
      </button>
      <RedeliverDialog
        deliveryIds={confirming}
        busy={busy}
        onConfirm={redeliver}
        onClose={() => setConfirming(null)}
      />
      <Toasts toasts={toasts} />
    </>
  );
}
