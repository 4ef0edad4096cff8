import { MUTED } from "../logs/ui.ts";

/** Characters of pretty-printed payload shown on the page; the API gives the whole payload. */
export const PAYLOAD_VIEW_CHARS = 200_000;

/**
 * An event's payload, pretty-printed in a scrolling box, cut at {@link PAYLOAD_VIEW_CHARS}
 * characters with a note; says so when the payload is past retention.
 */
export function PayloadViewer(props: { payload: Record<string, unknown> | null }) {
  if (props.payload === null) {
    return <p class={`text-sm ${MUTED}`}>The payload is past retention and no longer stored.</p>;
  }
  const text = JSON.stringify(props.payload, null, 2);
  const cut = text.length > PAYLOAD_VIEW_CHARS;
  return (
    <>
      <pre
        tabIndex={0}
        aria-label="Payload"
        class="max-h-[32rem] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-900 dark:bg-slate-950 dark:text-slate-100"
      >{cut ? text.slice(0, PAYLOAD_VIEW_CHARS) : text}</pre>
      {cut && (
        <p class={`mt-2 text-xs ${MUTED}`}>
          Shown: the first {PAYLOAD_VIEW_CHARS.toLocaleString("en")} of{" "}
          {text.length.toLocaleString("en")} characters.
        </p>
      )}
    </>
  );
}
