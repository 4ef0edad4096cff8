/** Rendering: a page inside `_app`, answered as a full HTML document. */
import { type ComponentType, h, type VNode } from "preact";
import type { Assets } from "./assets.ts";
import { type IslandRegistry, renderDocument } from "./render.ts";
import type { PageProps } from "./types.ts";

/** A page, `_app`, `_404` or `_error` component. */
// deno-lint-ignore no-explicit-any
export type PageComponent = ComponentType<PageProps<any, any>>;

/** A page's props; the renderer fills in `Component`. */
type PageInput<State> = Omit<PageProps<unknown, State>, "Component">;

/** Renders a page with its props as an HTML response with the given status and headers. */
export type PageRenderer = <State>(
  page: PageComponent,
  props: PageInput<State>,
  init?: ResponseInit,
) => Response;

const Empty = () => null;

/**
 * The page renderer for an application's `_app` (none: pages are the whole
 * document), assets and islands.
 */
export function createPageRenderer(
  app: PageComponent | undefined,
  assets: Assets,
  islands: IslandRegistry,
): PageRenderer {
  return (page, props, init) => {
    const pageProps = { ...props, Component: Empty };
    const tree =
      (app
        ? h(app, { ...props, Component: () => h(page, pageProps) })
        : h(page, pageProps)) as VNode;
    const headers = new Headers(init?.headers);
    headers.set("content-type", "text/html; charset=utf-8");
    return new Response(renderDocument(tree, assets, islands), { ...init, headers });
  };
}
