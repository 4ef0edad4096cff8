import { useState } from "preact/hooks";
import { redeliverAndReport } from "../../../components/logs/redeliver.ts";
import { RedeliverDialog } from "../../../components/logs/RedeliverDialog.tsx";
import { PRIMARY_BUTTON } from "../../../components/logs/ui.ts";

/** Sends one delivery's failed units again, after a confirmation; the result in a status message. */
export default function RedeliverButton(props: { deliveryId: string }) {
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const redeliver = async (deliveryIds: string[]) => {
    setBusy(true);
    try {
      const summary = await redeliverAndReport(deliveryIds);
      setDone(summary.requeued.length > 0);
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
    </>
  );
}
