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

const ICON = {
  "aria-hidden": true,
  width: 16,
  height: 16,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  "stroke-width": 2,
  "stroke-linecap": "round",
  "stroke-linejoin": "round",
} as const;

function SunIcon() {
  return (
    <svg {...ICON}>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg {...ICON}>
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  );
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
      {dark ? <MoonIcon /> : <SunIcon />}
      <span class="sr-only sm:not-sr-only">Dark mode</span>
    </button>
  );
}
