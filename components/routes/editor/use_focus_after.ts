/** Moving focus to an element once the render that shows it is done. */
import { useEffect, useRef } from "preact/hooks";

/** How long a request waits for its element to be rendered before it is dropped. */
const WAIT_MS = 2_000;

function find(target: string): Element | null {
  return target.startsWith("[") ? document.querySelector(target) : document.getElementById(target);
}

/**
 * A function that asks to focus the element with an id (or the first one a selector starting
 * with `[` finds) after the next render that shows it. A request is kept until its element is
 * there (at most {@link WAIT_MS}): an effect of an earlier render may run first, before the
 * element exists, and must not use the request up.
 */
export function useFocusAfter(): (target: string) => void {
  const request = useRef<{ target: string; until: number } | null>(null);
  useEffect(() => {
    const pending = request.current;
    if (!pending) return;
    const element = find(pending.target);
    if (!(element instanceof HTMLElement)) {
      if (performance.now() > pending.until) request.current = null;
      return;
    }
    request.current = null;
    element.focus();
  });
  return (target) => {
    request.current = { target, until: performance.now() + WAIT_MS };
  };
}
