/** Class lists the send logs, audit and overview pages share, in light and dark mode. */

/** A section's card. */
export const CARD =
  "rounded-lg border border-slate-200 bg-white text-slate-900 shadow-sm dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100";

/** Secondary text. */
export const MUTED = "text-slate-600 dark:text-slate-400";

/** Text inputs and selects. */
export const INPUT =
  "w-full min-w-0 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-500/40 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:[color-scheme:dark]";

/** A filter's label (text above its control). */
export const LABEL =
  "flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-700 dark:text-slate-300";

/** The main action of a form or dialog. */
export const PRIMARY_BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50 dark:bg-indigo-500 dark:hover:bg-indigo-400";

/** A secondary action (Cancel, Reset). */
export const SECONDARY_BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700";

/** A link in running text or a table. */
export const LINK =
  "font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

/** A table's header cell. */
export const TH =
  "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400";

/** A table's body cell. */
export const TD = "px-3 py-2 align-top text-sm";
