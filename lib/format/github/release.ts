/** The release formatter. */

import { authorOf, compose, type EventContext } from "../context.ts";
import { COLORS } from "../colors.ts";
import { field, type Message } from "../message.ts";
import { at, string } from "../read.ts";
import { humanize, safeUrl } from "../text.ts";
import { bodyQuote, refLink } from "./shared.ts";

const ANNOUNCING = new Set(["published", "prereleased", "released", "created"]);

function colorOf(action: string, release: unknown): number {
  if (action === "deleted" || action === "unpublished") return COLORS.red;
  if (!ANNOUNCING.has(action)) return COLORS.blue;
  if (at(release, "draft") === true) return COLORS.grey;
  return at(release, "prerelease") === true ? COLORS.yellow : COLORS.green;
}

function subjectOf(action: string, release: unknown, name: string): string {
  if (action === "prereleased" || (action === "published" && at(release, "prerelease") === true)) {
    return `Pre-release published: ${name}`;
  }
  const noun = action === "created" && at(release, "draft") === true ? "Draft release" : "Release";
  return `${noun} ${action === "released" ? "published" : humanize(action)}: ${name}`;
}

/**
 * A release: pre-releases and drafts are named as such (`released`, GitHub's
 * "now a full release", reads as published); announcements quote the notes.
 */
export function formatRelease(context: EventContext): Message {
  const release = context.payload.release;
  const action = context.action ?? "published";
  const tag = string(at(release, "tag_name"));
  const name = string(at(release, "name")) ?? tag ?? "release";
  return compose(context, {
    subject: subjectOf(action, release, name),
    url: safeUrl(at(release, "html_url")),
    color: colorOf(action, release),
    description: ANNOUNCING.has(action) ? bodyQuote(at(release, "body")) : [],
    fields: [tag ? field("Tag", refLink(context, { type: "tag", name: tag })) : undefined],
    author: authorOf(context, at(release, "author")),
  });
}
