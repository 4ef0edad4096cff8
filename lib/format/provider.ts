/** Display names of the event sources. */

import type { Provider } from "../types.ts";

const NAMES: Record<Provider, string> = {
  github: "GitHub",
  gitea: "Gitea",
  custom: "Custom webhook",
};

/** How a provider is named in message footers. */
export function providerName(provider: Provider): string {
  return NAMES[provider] ?? provider;
}
