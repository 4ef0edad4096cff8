/**
 * Small building blocks of the routes pages: panels, buttons, a switch, badges and the
 * classes they share, with their dark-mode colors. Server-rendered and used inside islands.
 */
import type { ComponentChildren, JSX } from "preact";
import type { FieldLook } from "../forms/FormField.tsx";

/** A panel: the surface every routes page puts its content on. */
export const PANEL =
  "rounded-lg border border-slate-200 bg-white text-slate-900 shadow-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
/** Secondary text on a panel. */
export const MUTED = "text-slate-600 dark:text-slate-300";
/** A text input or select. */
export const INPUT =
  "min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-400 dark:aria-[invalid=true]:border-red-400";
/** A field label. */
export const LABEL = "text-xs font-medium text-slate-700 dark:text-slate-300";
/** An error message under a field. */
export const ERROR = "text-xs text-red-700 dark:text-red-300";
/** A labelled field of the routes pages (`FormField`). */
export const FIELD: FieldLook = {
  box: "flex flex-col gap-0.5",
  label: LABEL,
  input: INPUT,
  problem: ERROR,
  hint: `text-xs ${MUTED}`,
};

const BUTTON_BASE =
  "inline-flex items-center justify-center gap-1 rounded-md text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-50 dark:focus-visible:ring-offset-slate-900";

/** Button looks. */
export const BUTTON = {
  primary:
    `${BUTTON_BASE} bg-indigo-600 px-3 py-1.5 text-white hover:bg-indigo-700 dark:bg-indigo-400 dark:text-slate-950 dark:hover:bg-indigo-300`,
  secondary:
    `${BUTTON_BASE} border border-slate-300 bg-white px-3 py-1.5 text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700`,
  danger:
    `${BUTTON_BASE} bg-red-700 px-3 py-1.5 text-white hover:bg-red-800 dark:bg-red-500 dark:text-slate-950 dark:hover:bg-red-400`,
  /** `sy-icon-button` in components/styles.css: the base look plus a square, quiet button. */
  icon: "sy-icon-button",
  link:
    `${BUTTON_BASE} px-1 text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300`,
} as const;

/** A link styled as text. */
export const LINK =
  "font-medium text-indigo-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-indigo-300";

/** A panel section with a heading. */
export function Panel(
  props: {
    title: string;
    headingId?: string;
    actions?: ComponentChildren;
    children: ComponentChildren;
    class?: string;
  },
) {
  return (
    <section aria-labelledby={props.headingId} class={`${PANEL} p-4 sm:p-5 ${props.class ?? ""}`}>
      <div class="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={props.headingId} class="text-base font-semibold">{props.title}</h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/** An on/off switch (`role="switch"`); `label` is its accessible name. */
export function Switch(
  props: {
    checked: boolean;
    label: string;
    onChange?: (checked: boolean) => void;
    disabled?: boolean;
    id?: string;
    showLabel?: boolean;
    testId?: string;
  },
) {
  return (
    <button
      type="button"
      role="switch"
      id={props.id}
      aria-checked={props.checked}
      aria-label={props.showLabel ? undefined : props.label}
      disabled={props.disabled}
      data-testid={props.testId}
      onClick={() => props.onChange?.(!props.checked)}
      class="sy-switch"
    >
      <span aria-hidden="true" class="sy-switch-track">
        <span class="sy-switch-knob" />
      </span>
      {props.showLabel && <span>{props.label}</span>}
    </button>
  );
}

/** Badge colors. */
const BADGE = {
  gray: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100",
  green: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/60 dark:text-emerald-100",
  red: "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100",
  indigo: "bg-indigo-100 text-indigo-900 dark:bg-indigo-900/60 dark:text-indigo-100",
} as const;

/** A small label. */
export function Badge(
  props:
    & { color: keyof typeof BADGE; children: ComponentChildren }
    & JSX.HTMLAttributes<
      HTMLSpanElement
    >,
) {
  const { color, children, ...rest } = props;
  return (
    <span
      {...rest}
      class={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${
        BADGE[color]
      }`}
    >
      {children}
    </span>
  );
}

/**
 * The content of a routes page: sets its own text and dark-mode background, so the page reads
 * well in dark mode whatever the surrounding layout's colors.
 */
export function PageBody(props: { children: ComponentChildren }) {
  return <div class="text-slate-900 dark:bg-slate-950 dark:text-slate-100">{props.children}</div>;
}
