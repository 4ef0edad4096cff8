/** A result line: a polite status for what worked, an alert for what was refused. */

/** What the last action gave. */
export type Status = { tone: "ok" | "error"; text: string } | null;

/**
 * Both live regions stay in the page, so screen readers announce each new message; only the
 * one that holds a message is visible.
 */
export function StatusMessage(props: { status: Status; testId?: string }) {
  const { status } = props;
  return (
    <div data-testid={props.testId}>
      <p
        role="status"
        class={status?.tone === "ok"
          ? "mt-3 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100"
          : "sr-only"}
      >
        {status?.tone === "ok" ? status.text : ""}
      </p>
      <p
        role="alert"
        class={status?.tone === "error"
          ? "mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
          : "sr-only"}
      >
        {status?.tone === "error" ? status.text : ""}
      </p>
    </div>
  );
}
