/**
 * Sender detection from the request headers. Gitea and Forgejo also send
 * GitHub-style headers, so they are recognised first.
 */
import type { ProviderAdapter } from "./adapter.ts";
import { custom } from "./custom.ts";
import { gitea } from "./gitea.ts";
import { github } from "./github.ts";

const GITEA_HEADERS = [
  "x-gitea-event",
  "x-gitea-signature",
  "x-forgejo-event",
  "x-forgejo-signature",
];
const GITHUB_HEADERS = ["x-github-event", "x-hub-signature-256"];
const CUSTOM_HEADERS = ["x-switchyard-signature", "webhook-signature"];

/** The adapter for the request's sender, or null when no known header is present. */
export function detectProvider(headers: Headers): ProviderAdapter | null {
  const has = (names: string[]) => names.some((name) => headers.has(name));
  if (has(GITEA_HEADERS)) return gitea;
  if (has(GITHUB_HEADERS)) return github;
  if (has(CUSTOM_HEADERS)) return custom;
  return null;
}
