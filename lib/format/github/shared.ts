/** Spans, blocks and fields that several forge formatters build the same way. */

import { branchUrl, commitUrl, type EventContext, loginOf, tagUrl, userUrl } from "../context.ts";
import {
  type Block,
  bold,
  code,
  field,
  line,
  link,
  type MessageField,
  quote,
  type Span,
  text,
} from "../message.ts";
import { at, names, record, string } from "../read.ts";
import { capitalize, cleanBody, humanize, type RefName, shortSha, truncate } from "../text.ts";

/** How much of an issue, pull request or release body a message quotes. */
const BODY_PREVIEW = 500;

/** How much of a comment or review a message quotes. */
export const COMMENT_PREVIEW = 700;

/** A short SHA linked to its commit page. */
export function commitLink(context: EventContext, sha: string): Span {
  return link(shortSha(sha), commitUrl(context, sha), true);
}

/** A branch or tag name linked to its page. */
export function refLink(context: EventContext, ref: RefName): Span {
  if (ref.type === "tag") return link(ref.name, tagUrl(context, ref.name), true);
  if (ref.type === "branch") return link(ref.name, branchUrl(context, ref.name), true);
  return code(ref.name);
}

/** A user's login linked to their profile, or undefined when the object has no login. */
export function userLink(context: EventContext, user: unknown): Span | undefined {
  const login = loginOf(user);
  return login ? link(login, userUrl(context, user)) : undefined;
}

/** A quote of the start of a body, or nothing when the body is empty. */
export function bodyQuote(body: unknown, max = BODY_PREVIEW): Block[] {
  const cleaned = cleanBody(string(body) ?? "");
  return cleaned ? [quote(truncate(cleaned, max))] : [];
}

/** Spans joined with a separator. */
function joinSpans(parts: Span[], separator = ", "): Span[] {
  return parts.flatMap((part, index) => index === 0 ? [part] : [text(separator), part]);
}

/** A field listing names as code (labels, branches), or undefined when there are none. */
export function namesField(name: string, values: string[]): MessageField | undefined {
  return values.length > 0 ? field(name, joinSpans(values.map(code))) : undefined;
}

/** The `Labels` field of an issue or pull request. */
export function labelsField(item: unknown): MessageField | undefined {
  return namesField("Labels", names(at(item, "labels")));
}

/** A field listing users as profile links, or undefined when there are none. */
export function usersField(
  context: EventContext,
  name: string,
  users: unknown[],
): MessageField | undefined {
  const spans = users.map((user) => userLink(context, user)).filter((span) => span !== undefined);
  return spans.length > 0 ? field(name, joinSpans(spans)) : undefined;
}

/** `#12 Title`, the way issues, pull requests and discussions are named in titles. */
export function numbered(item: unknown, fallbackTitle = "untitled"): string {
  const number = string(at(item, "number"));
  const title = string(at(item, "title")) ?? fallbackTitle;
  return number ? `#${number} ${title}` : title;
}

/** `New comment on X`, `Comment edited on X`, `Comment deleted on X` (or another noun). */
export function commentSubject(
  action: string | undefined,
  target: string,
  noun = "comment",
): string {
  if (action === undefined || action === "created") return `New ${noun} on ${target}`;
  return `${capitalize(noun)} ${humanize(action)} on ${target}`;
}

/** A `File` field: `path:line`, or undefined without a path. */
export function fileField(path: unknown, lineNumber: unknown): MessageField | undefined {
  const file = string(path);
  if (!file) return undefined;
  const position = string(lineNumber);
  return field("File", code(position ? `${file}:${position}` : file));
}

/** A one-line block `prefix value`, or nothing without a value. */
export function labelledLine(prefix: string, value: Span | undefined): Block[] {
  return value ? [line(text(prefix), value)] : [];
}

/**
 * What an issue or pull request action changed: the assignee, the label, the
 * milestone, or the edited parts (with the previous title). Nothing for other actions.
 */
export function changeDetails(context: EventContext, action: string, item: unknown): Block[] {
  const payload = context.payload;
  switch (action) {
    case "assigned":
    case "unassigned":
      return labelledLine("Assignee: ", userLink(context, payload.assignee));
    case "labeled":
    case "unlabeled": {
      const label = string(at(payload, "label", "name"));
      return labelledLine("Label: ", label ? code(label) : undefined);
    }
    case "milestoned":
    case "demilestoned": {
      const milestone = string(at(payload, "milestone", "title")) ??
        string(at(item, "milestone", "title"));
      return labelledLine("Milestone: ", milestone ? bold(milestone) : undefined);
    }
    case "edited": {
      const changed = Object.keys(record(payload.changes) ?? {});
      const previousTitle = string(at(payload, "changes", "title", "from"));
      return [
        ...(changed.length > 0 ? [line(text(`Changed: ${changed.map(humanize).join(", ")}`))] : []),
        ...labelledLine("Previous title: ", previousTitle ? text(previousTitle) : undefined),
      ];
    }
    default:
      return [];
  }
}

/** The logins of user objects, skipping those without one. */
export function loginsOf(users: unknown[]): string[] {
  return users.map(loginOf).filter((login) => login !== undefined);
}

/** A `Commit` field with the short SHA linked, or undefined without a SHA. */
export function commitField(context: EventContext, sha: unknown): MessageField | undefined {
  const value = string(sha);
  return value ? field("Commit", commitLink(context, value)) : undefined;
}

/** A `Branch` field with the branch linked, or undefined without a name. */
export function branchField(context: EventContext, branch: unknown): MessageField | undefined {
  const name = string(branch);
  return name ? field("Branch", refLink(context, { type: "branch", name })) : undefined;
}

/** A field showing plain text, or undefined without a text. */
export function textField(name: string, value: unknown, inline = true): MessageField | undefined {
  const content = string(value);
  return content ? field(name, text(content), inline) : undefined;
}

/** A one-line block of plain text, or nothing without a text. */
export function textLine(value: unknown): Block[] {
  const content = string(value);
  return content ? [line(text(content))] : [];
}
