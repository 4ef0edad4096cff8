/** Formatters for discussions and their comments. */

import { authorOf, compose, type EventContext } from "../context.ts";
import { COLORS } from "../colors.ts";
import { type Block, line, type Message, text } from "../message.ts";
import { at } from "../read.ts";
import { humanize, safeUrl } from "../text.ts";
import {
  bodyQuote,
  changeDetails,
  COMMENT_PREVIEW,
  commentSubject,
  numbered,
  textField,
} from "./shared.ts";
import { ownValue } from "../../own_value.ts";

const VERBS: Record<string, string> = {
  category_changed: "moved to another category",
};

const COLORS_BY_ACTION: Record<string, number> = {
  created: COLORS.green,
  answered: COLORS.green,
  reopened: COLORS.green,
  closed: COLORS.purple,
  deleted: COLORS.red,
};

function detailsOf(context: EventContext, action: string, discussion: unknown): Block[] {
  if (action === "created") return bodyQuote(at(discussion, "body"));
  if (action === "answered") {
    return [
      line(text("Answer:")),
      ...bodyQuote(at(context.payload, "answer", "body"), COMMENT_PREVIEW),
    ];
  }
  return changeDetails(context, action, discussion);
}

/** A discussion event: creation quotes the body, an answer quotes the answer; the category is shown. */
export function formatDiscussion(context: EventContext): Message {
  const discussion = context.payload.discussion;
  const action = context.action ?? "updated";
  return compose(context, {
    subject: `Discussion ${ownValue(VERBS, action) ?? humanize(action)}: ${numbered(discussion)}`,
    url: action === "answered"
      ? safeUrl(at(context.payload, "answer", "html_url")) ?? safeUrl(at(discussion, "html_url"))
      : safeUrl(at(discussion, "html_url")),
    color: ownValue(COLORS_BY_ACTION, action) ?? COLORS.blue,
    description: detailsOf(context, action, discussion),
    fields: [textField("Category", at(discussion, "category", "name"))],
  });
}

/** A comment on a discussion, quoted. */
export function formatDiscussionComment(context: EventContext): Message {
  const { discussion, comment } = context.payload;
  return compose(context, {
    subject: commentSubject(context.action, `discussion ${numbered(discussion)}`),
    url: safeUrl(at(comment, "html_url")) ?? safeUrl(at(discussion, "html_url")),
    color: COLORS.grey,
    description: bodyQuote(at(comment, "body"), COMMENT_PREVIEW),
    author: authorOf(context, at(comment, "user")),
  });
}
