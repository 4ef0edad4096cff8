/**
 * `GET /api/richheader`: the small Open Graph page Telegram reads for a notification's
 * link-preview card. It renders only cards the product made: {@link richHeaderLink} is the one
 * way to make a card's link, and it signs the card's parameters (HMAC-SHA256 under a key derived
 * from the instance secret, `lib/store/auth/instance_secret.ts`) into `sig`. A query without a valid
 * signature over exactly its parameters, with a parameter given twice or one not listed here,
 * answers 404, so no one can have the product's origin show a title of their choosing. The
 * parameters, each at most once:
 *
 * - `title` (required, 1-256 characters; runs of white space become one space, other control
 *   characters are refused),
 * - `description` (at most 1,000 characters),
 * - `ref`: `owner/repo` or `owner/repo#123`, which makes the card's address (the repository,
 *   or its issue or pull request, on the configured GitHub) and its image (the owner's avatar),
 * - `kind`: `pull` or `issues`, the page a numbered `ref` points at (default `issues`, which
 *   GitHub also redirects to a pull request),
 * - `sig`: the signature.
 *
 * Every value is checked (400 names the parameter) and escaped in the page; the page links
 * only to the configured GitHub and never redirects.
 */
import type { Kv } from "../../store/backend/types.ts";
import { z } from "zod";
import type { Config } from "../../config.ts";
import { hmacSha256, timingSafeEqual } from "../../crypto.ts";
import { fromBase64, utf8 } from "../../encoding.ts";
import { HttpError } from "../../fresh/mod.ts";
import { checkingKey, signingKey } from "../../store/auth/instance_secret.ts";

/** How long a card may be cached (it only repeats its parameters). */
const RICH_HEADER_MAX_AGE_SECONDS = 86_400;

const TITLE_MAX = 256;
const DESCRIPTION_MAX = 1_000;
const PARAMETERS = new Set(["title", "description", "ref", "kind"]);
const CONTROL = /\p{Cc}/u;
const REF =
  /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/((?!\.{1,2}(?:#|$))[A-Za-z0-9._-]{1,100})(?:#([1-9]\d{0,9}))?$/;
const KINDS = new Set(["pull", "issues"]);

/** The query in JSON Schema terms, for the API document (`readRichHeader` checks it). */
export const richHeaderQuerySchema = z.object({
  title: z.string().min(1).max(TITLE_MAX),
  description: z.string().min(1).max(DESCRIPTION_MAX).optional(),
  ref: z.string().regex(REF).optional()
    .describe("owner/repo or owner/repo#number: the card's address and image"),
  kind: z.enum(["pull", "issues"]).optional()
    .describe("the page a numbered ref points at (default issues)"),
  sig: z.string().describe("the signature the product put in the link it made"),
});

/** What the product puts on a card; {@link richHeaderLink} makes its link. */
export interface RichHeaderCard {
  title: string;
  description?: string;
  /** `owner/repo` or `owner/repo#123`. */
  ref?: string;
  /** The page a numbered `ref` points at. */
  kind?: "pull" | "issues";
}

/** What a card shows. */
interface RichHeader {
  title: string;
  description?: string;
  /** The card's address on GitHub. */
  url?: string;
  /** The repository owner's avatar. */
  image?: string;
}

/** Escapes text for HTML element content and double-quoted attributes. */
function escapeHtmlText(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new HttpError(400, `${name}: give it at most once`);
  return values[0];
}

function text(name: string, value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.replace(/\s+/g, " ").trim();
  if (trimmed.length === 0) throw new HttpError(400, `${name}: must not be empty`);
  if (trimmed.length > max) throw new HttpError(400, `${name}: at most ${max} characters`);
  if (CONTROL.test(trimmed)) throw new HttpError(400, `${name}: must not hold control characters`);
  return trimmed;
}

/** Longest query string read (the parameters' limits, encoded, fit well within it). */
const QUERY_MAX = 8_192;
/** What the card signing key is derived for. */
const SIGNING_PURPOSE = "richheader card";
const SIGNATURE = "sig";

/** The signed text: the card's parameters in a fixed order, absent ones as null. */
function signedText(values: (name: string) => string | undefined): Uint8Array<ArrayBuffer> {
  return utf8(JSON.stringify([SIGNING_PURPOSE, ...[...PARAMETERS].map((n) => values(n) ?? null)]));
}

const base64url = (bytes: Uint8Array) =>
  bytes.toBase64({ alphabet: "base64url", omitPadding: true });

/** `value` as card text: control characters and runs of white space become one space, cut to `max`. */
function cardText(value: string, max: number): string {
  const text = value.replace(/\p{Cc}/gu, " ").replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, "")}…`;
}

/**
 * The signed link of a card, on the instance's own address (`BASE_URL`). Text is made to fit
 * the card's limits; a `ref` or `kind` the card refuses throws the same 400 a request would get.
 */
export async function richHeaderLink(
  kv: Kv,
  config: Config,
  card: RichHeaderCard,
): Promise<string> {
  const query = new URLSearchParams({ title: cardText(card.title, TITLE_MAX) });
  if (card.description !== undefined) {
    query.set("description", cardText(card.description, DESCRIPTION_MAX));
  }
  if (card.ref !== undefined) query.set("ref", card.ref);
  if (card.kind !== undefined) query.set("kind", card.kind);
  readRichHeader(config, query);
  const key = await signingKey(kv, SIGNING_PURPOSE);
  const signature = await hmacSha256(key, signedText((name) => query.get(name) ?? undefined));
  query.set(SIGNATURE, base64url(signature));
  return `${config.baseUrl}/api/richheader?${query}`;
}

/** Reads the card's parameters; throws 400 naming the first bad one. */
function readRichHeader(config: Config, query: URLSearchParams): RichHeader {
  if (query.toString().length > QUERY_MAX) throw new HttpError(400, "The query is too long");
  for (const name of query.keys()) {
    if (!PARAMETERS.has(name)) {
      throw new HttpError(
        400,
        `Unknown parameter "${name.slice(0, 40)}": use title, description, ref, kind`,
      );
    }
  }
  const title = text("title", single(query, "title"), TITLE_MAX);
  if (title === undefined) throw new HttpError(400, "title: required");
  const description = text("description", single(query, "description"), DESCRIPTION_MAX);
  const ref = single(query, "ref");
  const kind = single(query, "kind");
  if (kind !== undefined && !KINDS.has(kind)) {
    throw new HttpError(400, "kind: must be pull or issues");
  }
  const header: RichHeader = { title, ...(description === undefined ? {} : { description }) };
  if (ref === undefined) {
    if (kind !== undefined) throw new HttpError(400, "kind: only with a numbered ref");
    return header;
  }
  const match = REF.exec(ref);
  if (!match) throw new HttpError(400, "ref: must be owner/repo or owner/repo#number");
  const [, owner, repo, number] = match;
  if (kind !== undefined && number === undefined) {
    throw new HttpError(400, "kind: only with a numbered ref");
  }
  const base = `${config.github.url}/${owner}/${repo}`;
  return {
    ...header,
    url: number === undefined ? base : `${base}/${kind ?? "issues"}/${number}`,
    image: `${config.github.url}/${owner}.png`,
  };
}

function meta(property: string, content: string | undefined): string {
  return content === undefined
    ? ""
    : `<meta property="${property}" content="${escapeHtmlText(content)}">\n`;
}

/** The card's page: Open Graph tags, and the same text for a person who opens it. */
function richHeaderHtml(header: RichHeader): string {
  const title = escapeHtmlText(header.title);
  const link = header.url === undefined
    ? ""
    : `<p><a href="${escapeHtmlText(header.url)}">${escapeHtmlText(header.url)}</a></p>\n`;
  return '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<title>${title}</title>\n` +
    meta("og:type", "website") +
    meta("og:site_name", "Switchyard") +
    meta("og:title", header.title) +
    meta("og:description", header.description) +
    meta("og:url", header.url) +
    meta("og:image", header.image) +
    "</head>\n<body>\n" +
    `<h1>${title}</h1>\n` +
    (header.description === undefined ? "" : `<p>${escapeHtmlText(header.description)}</p>\n`) +
    link +
    "</body>\n</html>\n";
}

/** The query string's signature, as bytes (null when absent or not a 32-byte base64url). */
function signatureOf(query: URLSearchParams): Uint8Array | null {
  const given = query.getAll(SIGNATURE);
  if (given.length !== 1) return null;
  const bytes = fromBase64(given[0], "base64url");
  return bytes && bytes.length === 32 ? bytes : null;
}

/**
 * Whether `query` is a link the product made: short enough, only the card's parameters, each
 * at most once, and a signature over exactly them under this store's key.
 */
async function isProductCard(kv: Kv, query: URLSearchParams): Promise<boolean> {
  if (query.toString().length > QUERY_MAX) return false;
  for (const name of query.keys()) {
    if (name !== SIGNATURE && !PARAMETERS.has(name)) return false;
    if (query.getAll(name).length > 1) return false;
  }
  const signature = signatureOf(query);
  const key = signature && await checkingKey(kv, SIGNING_PURPOSE);
  if (!signature || !key) return false;
  const expected = await hmacSha256(key, signedText((name) => query.get(name) ?? undefined));
  return timingSafeEqual(signature, expected);
}

/**
 * The answer to `GET /api/richheader`: the card's page for a link the product made (cacheable:
 * it depends only on its address), 404 for any other query.
 */
export async function richHeaderResponse(
  kv: Kv,
  config: Config,
  query: URLSearchParams,
): Promise<Response> {
  if (!await isProductCard(kv, query)) {
    return Response.json({ error: "Not found" }, { status: 404 });
  }
  const card = new URLSearchParams(query);
  card.delete(SIGNATURE);
  const html = richHeaderHtml(readRichHeader(config, card));
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": `public, max-age=${RICH_HEADER_MAX_AGE_SECONDS}`,
    },
  });
}
