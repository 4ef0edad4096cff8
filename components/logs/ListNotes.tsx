import type { ComponentChildren } from "preact";
import { MUTED } from "./ui.ts";

/** Why a filtered list shows nothing: its filters were refused (an alert). */
export function FilterError(props: { message?: string }) {
  if (props.message === undefined) return null;
  return (
    <p
      role="alert"
      class="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      {props.message}
    </p>
  );
}

/** A list with nothing in it: what is missing, or that the filters match nothing. */
export function EmptyList(props: { testId?: string; children: ComponentChildren }) {
  return (
    <p
      data-testid={props.testId}
      class={`rounded-lg border border-dashed border-slate-300 p-6 text-sm dark:border-slate-700 ${MUTED}`}
    >
      {props.children}
    </p>
  );
}
