/** Formatters for pushes and commit comments. */

import { authorOf, branchUrl, commitUrl, compose, type EventContext, tagUrl } from "../context.ts";
import { COLORS } from "../colors.ts";
import { type Block, bold, field, italic, line, link, type Message, text } from "../message.ts";
import { at, list, number, string } from "../read.ts";
import {
  firstLine,
  isZeroSha,
  parseRef,
  plural,
  type RefName,
  safeUrl,
  shortSha,
  truncate,
} from "../text.ts";
import { bodyQuote, COMMENT_PREVIEW, commentSubject, commitLink, fileField } from "./shared.ts";

/** How many commits a push message lists before summarising the rest. */
export const PUSH_COMMITS_LISTED = 10;

const COMMIT_SUBJECT_MAX = 100;

function commitLine(context: EventContext, commit: unknown): Block | undefined {
  const sha = string(at(commit, "id")) ?? string(at(commit, "sha"));
  if (!sha) return undefined;
  const url = safeUrl(at(commit, "url")) ?? commitUrl(context, sha);
  const subject = truncate(firstLine(string(at(commit, "message")) ?? ""), COMMIT_SUBJECT_MAX);
  const author = string(at(commit, "author", "username")) ?? string(at(commit, "author", "name"));
  return line(
    link(shortSha(sha), url, true),
    text(` ${subject}`),
    ...(author ? [text(" — "), italic(author)] : []),
  );
}

function commitLines(context: EventContext, count: number, compare?: string): Block[] {
  const lines = list(context.payload.commits)
    .slice(0, PUSH_COMMITS_LISTED)
    .map((commit) => commitLine(context, commit))
    .filter((block) => block !== undefined);
  const rest = count - lines.length;
  if (lines.length > 0 && rest > 0) {
    lines.push(line(link(`… and ${plural(rest, "more commit")}`, compare)));
  }
  return lines;
}

function refUrl(context: EventContext, ref: RefName): string | undefined {
  if (ref.type === "tag") return tagUrl(context, ref.name);
  if (ref.type === "branch") return branchUrl(context, ref.name);
  return context.repository?.url;
}

function forcedLine(context: EventContext): Block[] {
  const before = string(context.payload.before);
  const after = string(context.payload.after);
  if (!before || !after || isZeroSha(before) || isZeroSha(after)) return [];
  return [
    line(
      bold("Force-pushed"),
      text(": "),
      commitLink(context, before),
      text(" → "),
      commitLink(context, after),
    ),
  ];
}

/**
 * A push: commits listed with links and the compare view as the title link;
 * new branches and tags, deletions and force-pushes are named as such.
 */
export function formatPush(context: EventContext): Message {
  const payload = context.payload;
  const ref = parseRef(string(payload.ref) ?? "");
  const refName = ref.name || "unknown ref";
  const refKind = ref.type;
  const commits = list(payload.commits);
  const count = number(payload.total_commits) ?? commits.length;
  const compare = safeUrl(payload.compare) ?? safeUrl(payload.compare_url);
  const deleted = payload.deleted === true || isZeroSha(payload.after);
  const created = payload.created === true || isZeroSha(payload.before);
  const forced = payload.forced === true;
  const author = authorOf(context, payload.sender) ?? authorOf(context, payload.pusher);

  if (deleted) {
    return compose(context, {
      subject: `Deleted ${refKind} ${refName}`,
      url: context.repository?.url,
      color: COLORS.red,
      author,
    });
  }
  const commitBlocks = commitLines(context, count, compare);
  if (ref.type === "tag") {
    const head = string(at(payload, "head_commit", "id"));
    return compose(context, {
      subject: `${forced ? "Force-pushed" : "Pushed"} tag ${refName}`,
      url: refUrl(context, ref),
      color: created ? COLORS.green : COLORS.orange,
      fields: [head ? field("Commit", commitLink(context, head)) : undefined],
      author,
    });
  }
  if (created) {
    return compose(context, {
      subject: `Created ${refKind} ${refName}` +
        (count > 0 ? ` with ${plural(count, "commit")}` : ""),
      url: refUrl(context, ref) ?? compare,
      color: COLORS.green,
      description: commitBlocks,
      author,
    });
  }
  return compose(context, {
    subject: `${forced ? "Force-pushed" : "Pushed"} ${plural(count, "commit")} to ${refName}`,
    url: compare ?? refUrl(context, ref),
    color: forced ? COLORS.orange : COLORS.blue,
    description: [...(forced ? forcedLine(context) : []), ...commitBlocks],
    author,
  });
}

/** A comment on a commit, quoted, with the file and line when it is an inline comment. */
export function formatCommitComment(context: EventContext): Message {
  const comment = context.payload.comment;
  const sha = string(at(comment, "commit_id")) ?? "";
  return compose(context, {
    subject: commentSubject(context.action, sha ? `commit ${shortSha(sha)}` : "a commit"),
    url: safeUrl(at(comment, "html_url")) ?? (sha ? commitUrl(context, sha) : undefined),
    color: COLORS.grey,
    description: bodyQuote(at(comment, "body"), COMMENT_PREVIEW),
    fields: [
      sha ? field("Commit", commitLink(context, sha)) : undefined,
      fileField(at(comment, "path"), at(comment, "line")),
    ],
    author: authorOf(context, at(comment, "user")),
  });
}
