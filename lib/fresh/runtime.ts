/**
 * Components pages use while they render, as Fresh 2's `fresh/runtime` provides them:
 * `<Head>` puts its children into the document's `<head>`. A `<title>` given there replaces
 * the one `_app` writes (the last one rendered wins), so each page names itself.
 */
import type { ComponentChildren } from "preact";

type HeadSink = (children: ComponentChildren) => void;

let sink: HeadSink | null = null;

/**
 * Where `<Head>` children go while a document renders (`render.ts` sets it around one
 * render pass; null otherwise, and always in the browser, where `<Head>` renders nothing).
 */
export function collectHeadInto(next: HeadSink | null): void {
  sink = next;
}

/** Adds its children to the document's `<head>`; renders nothing where it stands. */
export function Head(props: { children: ComponentChildren }): null {
  sink?.(props.children);
  return null;
}
