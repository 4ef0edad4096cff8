/**
 * Server rendering of documents: island roots marked for hydration, the
 * island data (module URLs and props) serialized as JSON that cannot break
 * out of its script element, and the runtime that hydrates the islands on
 * the page, loaded from this site (no inline script).
 */
import {
  type ComponentChildren,
  type ComponentType,
  createContext,
  Fragment,
  h,
  options,
  type VNode,
} from "preact";
import { useContext } from "preact/hooks";
import { renderToString } from "preact-render-to-string";
import type { Assets } from "./assets.ts";
import { ISLAND_DATA_ID, ISLAND_TAG, type IslandData } from "./island_markup.ts";
import { collectHeadInto } from "./runtime.ts";

// deno-lint-ignore no-explicit-any
type AnyComponent = ComponentType<any>;
// deno-lint-ignore no-explicit-any
type AnyVNode = VNode<any>;

/** An application's islands: the name of each island component (one registry per app). */
export type IslandRegistry = ReadonlyMap<AnyComponent, string>;

/** The registry of a manifest's islands (name → module with the component as default export). */
export function islandRegistry(islands: Record<string, { default: unknown }>): IslandRegistry {
  return new Map(
    Object.entries(islands).map(([name, mod]) => [mod.default as AnyComponent, name]),
  );
}

interface RenderPass {
  islands: IslandRegistry;
  used: Set<string>;
  props: unknown[];
}

const InsideIsland = createContext(false);
/** The document being rendered; rendering is synchronous, so one at a time. */
let pass: RenderPass | null = null;
let creatingInner = false;

function IslandRoot(
  { name, component, props }: { name: string; component: AnyComponent; props: unknown },
): AnyVNode {
  const nested = useContext(InsideIsland);
  creatingInner = true;
  const inner = h(component, props as Record<string, unknown>);
  creatingInner = false;
  if (nested || !pass) return inner;
  const id = pass.props.push(props) - 1;
  pass.used.add(name);
  return h(
    ISLAND_TAG as string,
    { "data-island": name, "data-id": String(id), style: "display:contents" },
    h(InsideIsland.Provider, { value: true }, inner),
  );
}

const previousVnodeHook = options.vnode;
options.vnode = (vnode) => {
  const name = pass?.islands.get(vnode.type as AnyComponent);
  if (name && pass && !creatingInner) {
    const { children: _children, ...props } = vnode.props as Record<string, unknown>;
    vnode.props = { name, component: vnode.type, props } as unknown as typeof vnode.props;
    vnode.type = IslandRoot as typeof vnode.type;
  }
  previousVnodeHook?.(vnode);
};

/**
 * Serializes a value as JSON safe to embed in a `<script>` element: `<`,
 * `>`, `&` and the JavaScript line separators are escaped, so a prop
 * containing `</script>` cannot end the element.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Escapes a value for a double-quoted HTML attribute. */
function attribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

function hydrationScripts(pass: RenderPass, assets: Assets): string {
  const names = [...pass.used].filter((name) => assets.islands[name]);
  if (names.length === 0 || !assets.client) return "";
  const data: IslandData = {
    modules: Object.fromEntries(names.map((name) => [name, assets.islands[name]])),
    props: pass.props,
  };
  const preloads = names
    .map((name) => `<link rel="modulepreload" href="${attribute(assets.islands[name])}">`)
    .join("");
  return `<script type="application/json" id="${ISLAND_DATA_ID}">${scriptSafeJson(data)}</script>` +
    `${preloads}<script type="module" src="${attribute(assets.client)}"></script>`;
}

const TITLE = /<title[\s>][\s\S]*?<\/title>/gi;

/**
 * The document with `headExtra` before its `</head>` (a `<title>` in it replacing every title the
 * head had, the one `_app` writes) and `bodyExtra` before its last `</body>`; either goes at the
 * end when its tag is missing. The rendered page is cut once at both places and joined once, so a
 * large page is not scanned or copied again for each insertion.
 */
function assemble(html: string, headExtra: string, bodyExtra: string): string {
  const titles = headExtra.match(TITLE);
  if (titles) headExtra = headExtra.replace(TITLE, "") + titles[titles.length - 1];
  const headEnd = html.indexOf("</head>");
  const bodyEnd = html.lastIndexOf("</body>");
  if (headEnd === -1) {
    return bodyEnd === -1
      ? html + headExtra + bodyExtra
      : html.slice(0, bodyEnd) + bodyExtra + html.slice(bodyEnd) + headExtra;
  }
  const head = titles ? html.slice(0, headEnd).replace(TITLE, "") : html.slice(0, headEnd);
  const body = bodyEnd < headEnd
    ? html.slice(headEnd) + bodyExtra
    : html.slice(headEnd, bodyEnd) + bodyExtra + html.slice(bodyEnd);
  return head + headExtra + body;
}

/**
 * Renders a vnode tree to a complete HTML document, adding what `<Head>` collected and
 * the built stylesheets before `</head>` and the scripts for the islands it used before
 * `</body>`. Only components in `islands` are marked as island roots.
 */
export function renderDocument(tree: VNode, assets: Assets, islands: IslandRegistry): string {
  const current: RenderPass = { islands, used: new Set(), props: [] };
  const head: ComponentChildren[] = [];
  pass = current;
  collectHeadInto((children) => head.push(children));
  let html: string;
  try {
    html = renderToString(tree);
  } finally {
    pass = null;
    collectHeadInto(null);
  }
  const collected = head.map((children) => renderToString(h(Fragment, null, children))).join("");
  const styles = Object.values(assets.styles)
    .map((href) => `<link rel="stylesheet" href="${attribute(href)}">`).join("");
  return "<!DOCTYPE html>" + assemble(html, collected + styles, hydrationScripts(current, assets));
}
