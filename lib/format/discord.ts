/**
 * Rendering a message as a Discord bot message: one embed within every embed
 * limit, markdown escaped in the rich parts, and no pings except the roles
 * (and users) a route names explicitly.
 */

import type {
  APIActionRowComponent,
  APIAllowedMentions,
  APIComponentInMessageActionRow,
  APIEmbed,
  APIEmbedField,
} from "discord-api-types/v10";
import { ButtonStyle, ComponentType } from "./discord_values.ts";
import { GITHUB_REACTIONS } from "./reactions.ts";
import { type Block, line, type Message, type RichText, type Span } from "./message.ts";
import { cutRendered, ELLIPSIS, escapeMarkdown, truncate } from "./text.ts";
import { providerName } from "./provider.ts";
import { discordRunRows, type RunActions } from "./run_buttons.ts";

/** Discord's message and embed limits, in characters. */
export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  authorName: 256,
  total: 6000,
  mentions: 100,
} as const;

/** Room kept for the description before fields may take the rest of the embed total. */
const DESCRIPTION_RESERVE = 1024;

/** A value Discord requires but shows as nothing (a zero-width space). */
const BLANK = "\u200b";

const SNOWFLAKE = /^\d{1,20}$/;

/** Who a Discord message may ping. */
interface DiscordRenderOptions {
  /** Role ids rendered as `<@&id>` and allowed to ping. */
  roleIds?: string[];
  /** User ids rendered as `<@id>` and allowed to ping. */
  userIds?: string[];
  /** The buttons of a pull request, issue, workflow run or deployment review notification. */
  actions?: DiscordActions | RunActions;
}

/** What the buttons of a pull request or issue notification offer. */
export interface DiscordActions {
  kind: "pull" | "issue";
  /** `open`, `closed`, or `merged` (a pull request). */
  state: "open" | "closed" | "merged";
  /** The pull request's or issue's page on GitHub, for the link button. */
  url?: string;
  /** The item's tag (a few letters and digits), added to each `custom_id` after a `#`. */
  tag?: string;
}

/** The `custom_id`s of a notification's buttons and menu (each well under Discord's 100). */
export const DISCORD_ACTION_IDS = {
  merge: "gh:merge",
  close: "gh:close",
  reopen: "gh:reopen",
  comment: "gh:comment",
  react: "gh:react",
} as const;

/** What a tag may be: a few lower-case letters and digits. */
const ACTION_TAG = /^[0-9a-z]{1,13}$/;

/** Longest URL a link button takes. */
const MAX_BUTTON_URL = 512;

/** The body of Discord's Create Message request. */
export interface DiscordMessageBody {
  content?: string;
  embeds: APIEmbed[];
  allowed_mentions: APIAllowedMentions;
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
}

function codeSpan(value: string): string {
  const inner = value.replaceAll("`", "ˋ");
  return inner.trim() ? `\`${inner}\`` : "";
}

/** Emphasis markers around the text; surrounding spaces stay outside, where markdown needs them. */
function styled(marker: string, value: string): string {
  const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(value) ?? ["", "", value, ""];
  return core ? `${lead}${marker}${escapeMarkdown(core)}${marker}${trail}` : value;
}

function linkDestination(url: string): string {
  return url.replaceAll("(", "%28").replaceAll(")", "%29");
}

function renderSpan(span: Span): string {
  switch (span.kind) {
    case "text":
      return escapeMarkdown(span.text);
    case "bold":
      return styled("**", span.text);
    case "italic":
      return styled("*", span.text);
    case "code":
      return codeSpan(span.text);
    case "link": {
      const label = (span.code ? codeSpan(span.text) : escapeMarkdown(span.text)) ||
        escapeMarkdown(span.url);
      return `[${label}](${linkDestination(span.url)})`;
    }
  }
}

function renderQuote(value: string): string {
  return value.split("\n").map((quoted) => `> ${escapeMarkdown(quoted)}`).join("\n");
}

/** A piece of rich text that can be cut: its text and how it renders. */
interface Piece {
  text: string;
  render: (value: string) => string;
}

function piecesOf(blocks: RichText): Piece[] {
  const plain = (value: string) => value;
  return blocks.flatMap((block: Block, index): Piece[] => {
    const separator: Piece[] = index > 0 ? [{ text: "\n", render: plain }] : [];
    if (block.kind === "quote") return [...separator, { text: block.text, render: renderQuote }];
    return [
      ...separator,
      ...block.spans.map((span) => ({
        text: span.text,
        render: (value: string) => renderSpan({ ...span, text: value }),
      })),
    ];
  });
}

/**
 * Discord markdown for rich text, at most `max` characters: when it is too long
 * the piece that overflows is cut (inside its own markup) and ends with `…`.
 */
export function renderMarkdown(blocks: RichText, max: number): string {
  const pieces = piecesOf(blocks);
  const whole = pieces.map((piece) => piece.render(piece.text)).join("");
  if (whole.length <= max) return whole;
  let output = "";
  for (const piece of pieces) {
    const rendered = piece.render(piece.text);
    if (output.length + rendered.length + ELLIPSIS.length <= max) {
      output += rendered;
      continue;
    }
    const cut = cutRendered(piece.text, max - output.length, piece.render);
    return output + (cut || (output.length + ELLIPSIS.length <= max ? ELLIPSIS : ""));
  }
  return output;
}

function footerText(message: Message): string | undefined {
  if (!message.footer) return undefined;
  const provider = providerName(message.footer.provider);
  return message.footer.repository ? `${message.footer.repository} · ${provider}` : provider;
}

function renderFields(message: Message, budget: number): APIEmbedField[] {
  const fields: APIEmbedField[] = [];
  let remaining = budget;
  for (const item of (message.fields ?? []).slice(0, DISCORD_LIMITS.fields)) {
    const name = truncate(item.name, DISCORD_LIMITS.fieldName) || BLANK;
    const value = renderMarkdown([line(...item.value)], DISCORD_LIMITS.fieldValue) || BLANK;
    if (name.length + value.length > remaining) break;
    remaining -= name.length + value.length;
    fields.push(item.inline ? { name, value, inline: true } : { name, value });
  }
  return fields;
}

function renderEmbed(message: Message): APIEmbed {
  const title = truncate(message.title, DISCORD_LIMITS.title) || BLANK;
  const embed: APIEmbed = { title };
  if (message.url) embed.url = message.url;
  if (message.color !== undefined) embed.color = message.color;
  if (message.author) {
    embed.author = { name: truncate(message.author.name, DISCORD_LIMITS.authorName) || BLANK };
    if (message.author.url) embed.author.url = message.author.url;
    if (message.author.iconUrl) embed.author.icon_url = message.author.iconUrl;
  }
  const footer = footerText(message);
  if (footer) embed.footer = { text: truncate(footer, DISCORD_LIMITS.footer) };
  if (message.timestamp) embed.timestamp = message.timestamp;

  const fixed = title.length + (embed.author?.name.length ?? 0) +
    (embed.footer?.text.length ?? 0);
  const fullDescription = renderMarkdown(message.description ?? [], DISCORD_LIMITS.description);
  const reserve = Math.min(fullDescription.length, DESCRIPTION_RESERVE);
  const fields = renderFields(message, DISCORD_LIMITS.total - fixed - reserve);
  const fieldsLength = fields.reduce((sum, item) => sum + item.name.length + item.value.length, 0);
  const descriptionBudget = Math.min(
    DISCORD_LIMITS.description,
    DISCORD_LIMITS.total - fixed - fieldsLength,
  );
  const description = renderMarkdown(message.description ?? [], descriptionBudget);
  if (description) embed.description = description;
  if (fields.length > 0) embed.fields = fields;
  return embed;
}

function mentionable(ids: string[] | undefined): string[] {
  return [...new Set((ids ?? []).filter((id) => SNOWFLAKE.test(id)))].slice(
    0,
    DISCORD_LIMITS.mentions,
  );
}

/**
 * The Create Message body for a message: one embed, plus role and user pings in
 * `content` when the options name them. Nothing else can ping.
 */
export function renderDiscord(
  message: Message,
  options: DiscordRenderOptions = {},
): DiscordMessageBody {
  const mentions = [
    ...mentionable(options.roleIds).map((id) => ({ id, markup: `<@&${id}>`, role: true })),
    ...mentionable(options.userIds).map((id) => ({ id, markup: `<@${id}>`, role: false })),
  ];
  const included: typeof mentions = [];
  let content = "";
  for (const mention of mentions) {
    const next = content ? `${content} ${mention.markup}` : mention.markup;
    if (next.length > DISCORD_LIMITS.content) break;
    content = next;
    included.push(mention);
  }
  const allowed: APIAllowedMentions = { parse: [] };
  const roles = included.filter((mention) => mention.role).map((mention) => mention.id);
  const users = included.filter((mention) => !mention.role).map((mention) => mention.id);
  if (roles.length > 0) allowed.roles = roles;
  if (users.length > 0) allowed.users = users;
  const body: DiscordMessageBody = { embeds: [renderEmbed(message)], allowed_mentions: allowed };
  if (content) body.content = content;
  if (options.actions) {
    const actions = options.actions;
    body.components = actions.kind === "run" || actions.kind === "deployment"
      ? discordRunRows(actions)
      : discordActionRows(actions);
  }
  return body;
}

/**
 * The rows of a pull request or issue notification: Merge (open pull requests), Close or
 * Reopen, Comment and a link to GitHub, then a menu of GitHub's reactions. With a tag, each
 * `custom_id` ends in `#<tag>`.
 */
function discordActionRows(
  actions: DiscordActions,
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  const buttons: APIComponentInMessageActionRow[] = [];
  const tagged = (id: string) =>
    actions.tag && ACTION_TAG.test(actions.tag) ? `${id}#${actions.tag}` : id;
  const button = (
    custom_id: string,
    label: string,
    style:
      | typeof ButtonStyle.Primary
      | typeof ButtonStyle.Secondary
      | typeof ButtonStyle.Success
      | typeof ButtonStyle.Danger,
  ) => buttons.push({ type: ComponentType.Button, custom_id: tagged(custom_id), label, style });
  if (actions.kind === "pull" && actions.state === "open") {
    button(DISCORD_ACTION_IDS.merge, "Merge", ButtonStyle.Success);
  }
  if (actions.state === "open") button(DISCORD_ACTION_IDS.close, "Close", ButtonStyle.Danger);
  if (actions.state === "closed") {
    button(DISCORD_ACTION_IDS.reopen, "Reopen", ButtonStyle.Secondary);
  }
  button(DISCORD_ACTION_IDS.comment, "Comment", ButtonStyle.Primary);
  if (actions.url && actions.url.length <= MAX_BUTTON_URL && /^https?:\/\//.test(actions.url)) {
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Link,
      label: "Open on GitHub",
      url: actions.url,
    });
  }
  return [
    { type: ComponentType.ActionRow, components: buttons },
    {
      type: ComponentType.ActionRow,
      components: [{
        type: ComponentType.StringSelect,
        custom_id: tagged(DISCORD_ACTION_IDS.react),
        placeholder: "React on GitHub…",
        options: GITHUB_REACTIONS.map(([name, emoji]) => ({
          label: name,
          value: name,
          emoji: { name: emoji },
        })),
      }],
    },
  ];
}
