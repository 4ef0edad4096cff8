import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Modal } from "../../../components/layout/Modal.tsx";
import { MUTED, SECONDARY_BUTTON } from "../../../components/layout/ui.ts";

/** The console's keyboard shortcuts, as the dialog lists them. */
const SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  ["/", "Focus the page's search field"],
  ["?", "Show this list"],
  ["Esc", "Close a dialog or drawer"],
];

/** Whether a key typed here is text for a field rather than a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.matches("input, textarea, select");
}

/** Closes the drawers on the page: non-modal `<dialog>`s and `<details data-drawer>`. */
function closeDrawers(): boolean {
  let closed = false;
  for (const drawer of document.querySelectorAll<HTMLDialogElement>("dialog[open]")) {
    if (drawer.matches(":modal")) continue;
    drawer.close();
    closed = true;
  }
  for (
    const drawer of document.querySelectorAll<HTMLDetailsElement>("details[data-drawer][open]")
  ) {
    drawer.open = false;
    drawer.querySelector("summary")?.focus();
    closed = true;
  }
  return closed;
}

/**
 * Keyboard shortcuts for every console page: `/` focuses the page's search field (any input
 * marked `data-search`), `?` opens the list of shortcuts, Esc closes drawers (modal dialogs
 * close on Esc by themselves). Also renders the footer button that opens the list (hidden
 * until the script runs).
 */
export default function Shortcuts() {
  const [open, setOpen] = useState(false);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    setReady(true);
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Escape") {
        if (closeDrawers()) event.preventDefault();
        return;
      }
      if (isTyping(event.target) || document.querySelector("dialog:modal")) return;
      if (event.key === "/") {
        const search = document.querySelector<HTMLElement>("[data-search]");
        if (!search) return;
        event.preventDefault();
        search.focus();
      } else if (event.key === "?") {
        event.preventDefault();
        setOpen(true);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      <button
        type="button"
        hidden={!ready}
        class={`text-sm underline-offset-2 hover:underline ${MUTED}`}
        onClick={() => setOpen(true)}
      >
        Keyboard shortcuts <kbd class="font-mono">?</kbd>
      </button>
      <Modal open={open} title="Keyboard shortcuts" onClose={() => setOpen(false)}>
        <dl class="mt-4 grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-3 text-sm">
          {SHORTCUTS.map(([keys, what]) => (
            <Fragment key={keys}>
              <dt>
                <kbd class="rounded border border-slate-300 bg-slate-50 px-2 py-0.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-800">
                  {keys}
                </kbd>
              </dt>
              <dd>{what}</dd>
            </Fragment>
          ))}
        </dl>
        <form method="dialog" class="mt-5 flex justify-end">
          <button type="submit" class={SECONDARY_BUTTON}>
            Close
          </button>
        </form>
      </Modal>
    </>
  );
}
