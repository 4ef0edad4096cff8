/**
 * Security headers on every answer. HTML pages may not be framed (no
 * clickjacking of their buttons) and may run scripts from this site only:
 * island hydration loads same-origin modules and reads its data from a JSON
 * block, so no inline script is needed. Inline `style` attributes stay
 * allowed (island roots use one). Every response is `nosniff` and sends the
 * referrer to other sites as its origin only.
 */

/** The Content-Security-Policy of HTML pages. */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const EVERY_RESPONSE: [string, string][] = [
  ["x-content-type-options", "nosniff"],
  ["referrer-policy", "strict-origin-when-cross-origin"],
];
const HTML_RESPONSE: [string, string][] = [
  ["content-security-policy", PAGE_CSP],
  ["x-frame-options", "DENY"],
];

/** Whether a content type is HTML. */
function isHtml(contentType: string | null): boolean {
  return /^\s*text\/html\b/i.test(contentType ?? "");
}

/** The security headers a response with `contentType` gets. */
export function securityHeadersFor(contentType: string | null): [string, string][] {
  return isHtml(contentType) ? [...EVERY_RESPONSE, ...HTML_RESPONSE] : EVERY_RESPONSE;
}
