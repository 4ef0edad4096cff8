/**
 * The `<ref>` of a chat command: `owner/repo#123`, or the address of a pull request or issue on
 * GitHub (`https://github.com/owner/repo/pull/123`, `…/issues/123`, with anything after the
 * number). Input is bounded and every part is checked against GitHub's naming rules before it
 * goes anywhere near a request path.
 */
import { OWNER_PATTERN, REPO_PATTERN } from "./github_names.ts";

/** A pull request or issue; `kind` is known when an address named it. */
export interface IssueRef {
  owner: string;
  repo: string;
  number: number;
  kind?: "pull" | "issue";
}

/** A parsed ref, or why the text is not one. */
type RefResult = { ok: true; ref: IssueRef } | { ok: false; error: string };

/** Longest ref text read. */
export const MAX_REF_LENGTH = 300;
/** Largest issue number accepted (GitHub's are 32-bit). */
const MAX_NUMBER = 2_147_483_647;

const SHORT_FORM = /^([^/\s#]+)\/([^/\s#]+)#(\d{1,10})$/;
const URL_PATH = /^\/([^/]+)\/([^/]+)\/(pull|pulls|issues)\/(\d{1,10})(?:\/.*)?$/;
const GITHUB_HOSTS = new Set(["github.com", "www.github.com"]);

const USAGE = "Give a pull request or issue as owner/repo#123 or its GitHub address.";

function fail(error: string): RefResult {
  return { ok: false, error };
}

function build(owner: string, repo: string, digits: string, kind?: IssueRef["kind"]): RefResult {
  if (!OWNER_PATTERN.test(owner)) {
    return fail(`"${owner}" is not a GitHub account name (1-39 letters, digits or -).`);
  }
  const name = repo.endsWith(".git") ? repo.slice(0, -4) : repo;
  if (!REPO_PATTERN.test(name)) {
    return fail(`"${name}" is not a repository name (1-100 letters, digits, ., _ or -).`);
  }
  const number = Number(digits);
  if (!Number.isSafeInteger(number) || number < 1 || number > MAX_NUMBER) {
    return fail(`${digits} is not a pull request or issue number.`);
  }
  return {
    ok: true,
    ref: kind ? { owner, repo: name, number, kind } : { owner, repo: name, number },
  };
}

function fromUrl(text: string): RefResult {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(USAGE);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return fail(USAGE);
  if (!GITHUB_HOSTS.has(url.hostname.toLowerCase()) || url.port !== "") {
    return fail("Only addresses on github.com are understood.");
  }
  const match = url.pathname.match(URL_PATH);
  if (!match) return fail("That address is not a pull request or issue on GitHub.");
  const [, owner, repo, kind, digits] = match;
  return build(owner, repo, digits, kind === "issues" ? "issue" : "pull");
}

/** Parses a `<ref>`; the error is a sentence to answer in the chat. */
export function parseRef(input: unknown): RefResult {
  if (typeof input !== "string") return fail(USAGE);
  const text = input.trim();
  if (text.length === 0) return fail(USAGE);
  if (text.length > MAX_REF_LENGTH) return fail(`That ref is too long; ${USAGE}`);
  if (/^https?:\/\//i.test(text)) return fromUrl(text);
  const match = text.match(SHORT_FORM);
  if (!match) return fail(USAGE);
  return build(match[1], match[2], match[3]);
}

/** The ref as `owner/repo#123`. */
export function refText(ref: IssueRef): string {
  return `${ref.owner}/${ref.repo}#${ref.number}`;
}

/** A ref for `owner/name` and a number, when the repository name is well-formed. */
export function refOf(
  repository: string,
  number: number,
  kind?: IssueRef["kind"],
): IssueRef | null {
  const slash = repository.indexOf("/");
  if (slash < 0) return null;
  const result = build(
    repository.slice(0, slash),
    repository.slice(slash + 1),
    String(number),
    kind,
  );
  return result.ok ? result.ref : null;
}
