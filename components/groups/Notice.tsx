/** A message the page shows after a navigation (a group created, renamed or deleted). */
export function Notice(props: { text: string | null }) {
  if (!props.text) return null;
  return (
    <p
      role="status"
      class="mb-6 rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100"
    >
      {props.text}
    </p>
  );
}
