/** Class names the group pages share, so their controls look and behave alike (light and dark). */
import type { FieldLook } from "../forms/FormField.tsx";

/** A section card. */
export const CARD =
  "rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";

/** A section heading inside a card. */
export const CARD_TITLE = "text-lg font-semibold text-slate-900 dark:text-slate-100";

/** Secondary text. */
export const MUTED = "text-sm text-slate-600 dark:text-slate-300";

/** A text input or select. */
export const INPUT =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100";

/** A labelled field of the group pages (`FormField`). */
export const FIELD: FieldLook = {
  box: "flex flex-col gap-1",
  label: "text-sm font-medium",
  input: INPUT,
  problem: "text-xs text-red-700 dark:text-red-300",
  hint: "text-xs text-slate-600 dark:text-slate-300",
};

/** A read-only monospace field (URLs, secrets). */
export const CODE_FIELD =
  "w-full min-w-0 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100";

const BUTTON =
  "inline-flex items-center justify-center gap-1 rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60 dark:focus-visible:ring-offset-slate-900";

/** The main action of a form. */
export const PRIMARY = `${BUTTON} bg-indigo-600 text-white hover:bg-indigo-500`;

/** Any other action. */
export const SECONDARY =
  `${BUTTON} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700`;

/** An action that removes or replaces something. */
export const DANGER = `${BUTTON} bg-red-700 text-white hover:bg-red-600`;

/** A destructive action shown quietly until used. */
export const DANGER_QUIET =
  `${BUTTON} border border-red-300 bg-white text-red-700 hover:bg-red-50 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950`;

/** A small label (role, state). */
export const BADGE = "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium";

/** Badge colours by meaning. */
export const BADGE_TONES = {
  owner: "bg-indigo-100 text-indigo-800 dark:bg-indigo-900 dark:text-indigo-100",
  admin: "bg-sky-100 text-sky-800 dark:bg-sky-900 dark:text-sky-100",
  viewer: "bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100",
  on: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100",
  off: "bg-slate-100 text-slate-700 dark:bg-slate-700 dark:text-slate-100",
} as const;
