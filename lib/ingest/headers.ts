/** The request headers worth keeping on a stored event (never signatures). */

/** Lower-case names of the headers kept on an event. */
const KEPT_HEADERS = [
  "content-type",
  "user-agent",
  "x-github-event",
  "x-github-delivery",
  "x-github-hook-id",
  "x-github-hook-installation-target-type",
  "x-github-hook-installation-target-id",
  "x-github-enterprise-host",
  "x-github-enterprise-version",
  "x-gitea-event",
  "x-gitea-event-type",
  "x-gitea-delivery",
  "x-gitea-hook-installation-target-type",
  "x-forgejo-event",
  "x-forgejo-event-type",
  "x-forgejo-delivery",
  "webhook-id",
  "webhook-timestamp",
  "x-switchyard-timestamp",
] as const;

const MAX_VALUE_LENGTH = 512;

/** The kept headers that the request has, with values cut to 512 characters. */
export function pickHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null && value !== "") kept[name] = value.slice(0, MAX_VALUE_LENGTH);
  }
  return kept;
}
