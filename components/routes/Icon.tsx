/**
 * Small line icons for the routes pages' buttons (drawn inline, so they need no font and no
 * request; their stroke is `sy-icon` in components/styles.css). Decorative: the button around an
 * icon carries the accessible name.
 */

const PATHS = {
  up: "M12 19V5M5 12l7-7 7 7",
  down: "M12 5v14M19 12l-7 7-7-7",
  edit: "M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4",
  copy: "M8 8h11v11H8zM5 16V5h11",
  trash: "M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  close: "M6 6l12 12M18 6L6 18",
  grip: "M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01",
} as const;

/** An icon by name. */
export function Icon(props: { name: keyof typeof PATHS; class?: string }) {
  const dots = props.name === "more" || props.name === "grip";
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      class={`sy-icon${dots ? " sy-icon-dots" : ""} ${props.class ?? "h-4 w-4"}`}
    >
      <path d={PATHS[props.name]} />
    </svg>
  );
}
