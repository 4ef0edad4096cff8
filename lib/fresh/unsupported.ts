/**
 * Fresh 2 route features the layer does not have, refused when the app is
 * built so a route written for Fresh 2 never runs differently in silence
 * (docs/fresh_layer.md lists them).
 */
import type { RouteModule } from "./types.ts";

const LAYOUT_FILE = /(^|\/)_layout\.[jt]sx?$/;
const GROUP_FOLDER = /(^|\/)\([^/]*\)\//;

/** Why the layer cannot serve a route module as Fresh 2 would, or null when it can. */
function unsupportedFeature<State>(file: string, mod: RouteModule<State>): string | null {
  if (LAYOUT_FILE.test(file)) return "_layout files are not supported; wrap pages in _app";
  if (GROUP_FOLDER.test(file)) return "route groups `(name)` are not supported";
  if (Object.hasOwn(mod, "handlers")) return "export `handler`: a `handlers` export is not read";
  if (Object.hasOwn(mod, "config")) return "a route `config` export is not supported";
  if (typeof mod.default === "function" && mod.default.constructor.name === "AsyncFunction") {
    return "async page components are not supported; load data in the handler";
  }
  return null;
}

/** Throws when a route module relies on a Fresh 2 feature the layer lacks. */
export function refuseUnsupported<State>(file: string, mod: RouteModule<State>): void {
  const feature = unsupportedFeature(file, mod);
  if (feature !== null) throw new Error(`routes/${file}: ${feature} (docs/fresh_layer.md)`);
}
