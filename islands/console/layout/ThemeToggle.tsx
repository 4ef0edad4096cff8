import { useEffect, useState } from "preact/hooks";
import { HEADER_BUTTON } from "../../../components/layout/ui.ts";

/** The storage key `static/theme.js` reads before the page paints. */
const THEME_KEY = "switchyard-theme";

function systemIsDark(): boolean {
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

/**
 * Remembers the choice in this browser; a choice equal to the system's scheme is forgotten,
 * so the page follows the system again.
 */
function remember(dark: boolean): void {
  try {
    if (dark === systemIsDark()) localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, dark ? "dark" : "light");
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

/**
 * The dark mode switch. Hidden until the script runs (it needs one); it reflects and flips
 * the `dark` class `static/theme.js` set before paint.
 */
export default function ThemeToggle() {
  const [dark, setDark] = useState<boolean | null>(null);
  useEffect(() => {
    const root = document.documentElement;
    setDark(root.classList.contains("dark"));
    const observer = new MutationObserver(() => setDark(root.classList.contains("dark")));
    observer.observe(root, { attributes: true, attributeFilter: ["class"] });
    return () => observer.disconnect();
  }, []);

  const toggle = () => {
    const next = !document.documentElement.classList.contains("dark");
    remember(next);
    document.documentElement.classList.toggle("dark", next);
  };

  return (
    <button
      type="button"
      hidden={dark === null}
      aria-pressed={dark ?? false}
      data-theme-toggle
      class={HEADER_BUTTON}
      onClick={toggle}
    >
      <span aria-hidden="true">{dark ? "☾" : "☀"}</span>
      <span class="sr-only sm:not-sr-only">Dark mode</span>
    </button>
  );
}
