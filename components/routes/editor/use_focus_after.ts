/** Moving focus to an element once the render that shows it is done. */
import { useEffect, useRef } from "preact/hooks";

/**
 * A function that asks to focus the element with an id (or the first one a selector starting
 * with `[` finds) after the next render.
 */
export function useFocusAfter(): (target: string) => void {
  const focusAfter = useRef<string | null>(null);
  useEffect(() => {
    if (!focusAfter.current) return;
    const element = focusAfter.current.startsWith("[")
      ? document.querySelector(focusAfter.current)
      : document.getElementById(focusAfter.current);
    focusAfter.current = null;
    if (element instanceof HTMLElement) element.focus();
  });
  return (target) => {
    focusAfter.current = target;
  };
}
