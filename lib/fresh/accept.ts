/** What a request's `Accept` header asks for: a page, or JSON alone. */

function acceptOf(req: Request): string {
  return req.headers.get("accept") ?? "";
}

/** Whether the client accepts HTML (`Accept` names `text/html`): a browser rather than a script. */
export function acceptsHtml(req: Request): boolean {
  return acceptOf(req).includes("text/html");
}

/** Whether the client asks for JSON and not HTML (`Accept` names the one and not the other). */
export function asksForJsonOnly(req: Request): boolean {
  const accept = acceptOf(req);
  return accept.includes("application/json") && !accept.includes("text/html");
}
