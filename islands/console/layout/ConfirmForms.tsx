import { useEffect, useRef, useState } from "preact/hooks";
import { ConfirmDialog, type ConfirmRequest } from "../../../components/layout/ConfirmDialog.tsx";

interface Pending {
  form: HTMLFormElement;
  submitter: HTMLElement | null;
  request: ConfirmRequest;
}

/**
 * Confirmation for server-rendered forms: a form marked `data-confirm="Delete group web?"`
 * (optionally `data-confirm-detail` and `data-confirm-label`) asks in a modal dialog before
 * it is submitted. Without JavaScript the form submits directly.
 */
export default function ConfirmForms() {
  const [pending, setPending] = useState<Pending | null>(null);
  const confirmed = useRef(new WeakSet<HTMLFormElement>());

  useEffect(() => {
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || form.dataset.confirm === undefined) return;
      if (confirmed.current.delete(form)) return;
      event.preventDefault();
      const submitter = event.submitter instanceof HTMLElement ? event.submitter : null;
      setPending({
        form,
        submitter,
        request: {
          title: form.dataset.confirm || "Are you sure?",
          detail: form.dataset.confirmDetail,
          confirmLabel: form.dataset.confirmLabel ?? submitter?.textContent?.trim(),
        },
      });
    };
    document.addEventListener("submit", onSubmit);
    return () => document.removeEventListener("submit", onSubmit);
  }, []);

  const onAnswer = (yes: boolean) => {
    const current = pending;
    setPending(null);
    if (!yes || !current) return;
    confirmed.current.add(current.form);
    current.form.requestSubmit(current.submitter);
  };

  return <ConfirmDialog request={pending?.request ?? null} onAnswer={onAnswer} />;
}
