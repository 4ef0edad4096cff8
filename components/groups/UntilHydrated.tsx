import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * Keeps an island's controls disabled until its script runs, so a click or a keystroke that
 * comes before can neither submit a form natively (reloading the page) nor be lost.
 */
export function UntilHydrated(props: { children: ComponentChildren }) {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return (
    <fieldset disabled={!ready} class="contents">
      {props.children}
    </fieldset>
  );
}
