import { useState } from "preact/hooks";
import { SECONDARY } from "./ui.ts";

/**
 * Puts `text` on the clipboard. Where the Clipboard API is missing (a page not served over
 * HTTPS or from localhost), the text is copied through a selected, hidden text area.
 */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "sr-only";
    document.body.append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}

/**
 * A button that copies `text`; `what` completes its name ("Copy webhook URL"), read by screen
 * readers after the visible "Copy" or "Copied".
 */
export function CopyButton(props: { text: string; what: string; testId?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => setState(await copyText(props.text) ? "copied" : "failed");
  return (
    <>
      <button
        type="button"
        class={SECONDARY}
        data-testid={props.testId}
        onClick={copy}
      >
        {state === "copied" ? "Copied" : "Copy"}
        <span class="sr-only">{` ${props.what}`}</span>
      </button>
      <span role="status" class="sr-only">
        {state === "copied"
          ? "Copied to the clipboard"
          : state === "failed"
          ? "Could not copy: select the text and copy it"
          : ""}
      </span>
    </>
  );
}
