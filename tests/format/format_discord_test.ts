/** Discord rendering: embed mapping, mention control, markdown escaping and every limit. */
import assert from "node:assert/strict";
import type { APIEmbed } from "discord-api-types/v10";
import { DISCORD_LIMITS, renderDiscord, renderMarkdown } from "../../lib/format/discord.ts";
import {
  bold,
  code,
  field,
  line,
  link,
  type Message,
  quote,
  text,
} from "../../lib/format/message.ts";
import { format, hasLoneSurrogate } from "../_format_helpers.ts";
import { fixtureJson } from "../_ingest_helpers.ts";

function embedTotal(embed: APIEmbed): number {
  return (embed.title?.length ?? 0) + (embed.description?.length ?? 0) +
    (embed.author?.name.length ?? 0) + (embed.footer?.text.length ?? 0) +
    (embed.fields ?? []).reduce((sum, item) => sum + item.name.length + item.value.length, 0);
}

function onlyEmbed(message: Message): APIEmbed {
  const body = renderDiscord(message);
  assert.equal(body.embeds.length, 1);
  return body.embeds[0];
}

Deno.test("a formatted pull request maps onto one embed", async () => {
  const message = format("pull_request", await fixtureJson("pull_request/opened.payload.json"));
  const body = renderDiscord(message);
  const [embed] = body.embeds;
  assert.equal(embed.title, message.title);
  assert.equal(embed.url, "https://github.com/Codertocat/Hello-World/pull/2");
  assert.equal(embed.color, message.color);
  assert.deepEqual(embed.author, {
    name: "Codertocat",
    url: "https://github.com/Codertocat",
    icon_url: "https://avatars1.githubusercontent.com/u/21031067?v=4",
  });
  assert.deepEqual(embed.footer, { text: "Codertocat/Hello-World · GitHub" });
  assert.equal(embed.timestamp, message.timestamp);
  assert.equal(
    embed.description,
    "> This is a pretty simple change that we need to pull into master.",
  );
  assert.deepEqual(embed.fields?.[0], {
    name: "Branch",
    value: "[`changes`](https://github.com/Codertocat/Hello-World/tree/changes) → " +
      "[`master`](https://github.com/Codertocat/Hello-World/tree/master)",
    inline: true,
  });
  assert.equal(body.content, undefined);
  assert.deepEqual(body.allowed_mentions, { parse: [] });
});

Deno.test("roles and users ping only when named; anything but a snowflake is dropped", () => {
  const message: Message = { title: "t" };
  const body = renderDiscord(message, {
    roleIds: ["111111111111111111", "@everyone", "222>", "111111111111111111"],
    userIds: ["333333333333333333"],
  });
  assert.equal(body.content, "<@&111111111111111111> <@333333333333333333>");
  assert.deepEqual(body.allowed_mentions, {
    parse: [],
    roles: ["111111111111111111"],
    users: ["333333333333333333"],
  });
});

Deno.test("mentions never push content past 2,000 characters", () => {
  const roleIds = Array.from({ length: 100 }, (_, index) => `${10n ** 19n + BigInt(index)}`);
  const body = renderDiscord({ title: "t" }, { roleIds });
  assert.ok((body.content ?? "").length <= DISCORD_LIMITS.content);
  assert.equal(body.allowed_mentions.roles?.length, body.content?.split(" ").length);
});

Deno.test("user text is escaped in markdown: no injected formatting, links or headings", () => {
  const embed = onlyEmbed({
    title: "**not bold** [x](https://evil.example)",
    description: [
      line(text("**bold?** _it_ ~~s~~ `c` [link](https://evil.example) <@123> |spoiler|")),
      line(text("# heading")),
      line(text("- list")),
      line(text("1. numbered")),
      quote("> nested\n# also"),
    ],
    fields: [field("Name", text("*x*"))],
  });
  assert.equal(
    embed.description,
    [
      "\\*\\*bold?\\*\\* \\_it\\_ \\~\\~s\\~\\~ \\`c\\` \\[link\\]\\(https://evil.example\\) \\<@123\\> \\|spoiler\\|",
      "\\# heading",
      "\\- list",
      "1\\. numbered",
      "> \\> nested",
      "> \\# also",
    ].join("\n"),
  );
  assert.equal(embed.fields?.[0].value, "\\*x\\*");
  assert.equal(embed.title, "**not bold** [x](https://evil.example)");
});

Deno.test("styled spans, code and link destinations stay well formed", () => {
  assert.equal(
    renderMarkdown([
      line(bold("a_b"), text(" "), code("x`y"), text(" "), link("t", "https://e.x/a_(b)")),
    ], 200),
    "**a\\_b** `xˋy` [t](https://e.x/a_%28b%29)",
  );
  assert.equal(
    renderMarkdown([line(link("main", "https://e.x/tree/main", true))], 200),
    "[`main`](https://e.x/tree/main)",
  );
  assert.equal(renderMarkdown([line(bold(" spaced "))], 200), " **spaced** ");
});

Deno.test("title, author, footer, field names and values are cut to their limits with …", () => {
  const embed = onlyEmbed({
    title: "T".repeat(300),
    author: { name: "A".repeat(300) },
    footer: { repository: "r".repeat(3000), provider: "github" },
    fields: [field("N".repeat(300), text("V".repeat(2000)))],
  });
  assert.equal(embed.title?.length, DISCORD_LIMITS.title);
  assert.ok(embed.title?.endsWith("…"));
  assert.equal(embed.author?.name.length, DISCORD_LIMITS.authorName);
  assert.equal(embed.footer?.text.length, DISCORD_LIMITS.footer);
  assert.equal(embed.fields?.[0].name.length, DISCORD_LIMITS.fieldName);
  assert.equal(embed.fields?.[0].value.length, DISCORD_LIMITS.fieldValue);
  assert.ok(embed.fields?.[0].value.endsWith("…"));
});

Deno.test("a long description is cut to 4,096 inside its markup", () => {
  const embed = onlyEmbed({
    title: "t",
    description: [line(text("word ".repeat(2000)))],
  });
  assert.ok((embed.description ?? "").length <= DISCORD_LIMITS.description);
  assert.ok(embed.description?.endsWith("word…"));
  const linked = renderMarkdown([line(link("label ".repeat(50), "https://e.x/long"))], 100);
  assert.ok(linked.length <= 100);
  assert.match(linked, /^\[label[a-z ]*…\]\(https:\/\/e\.x\/long\)$/);
  const quoted = renderMarkdown([quote("line one\nline two\nline three")], 20);
  assert.ok(quoted.length <= 20);
  assert.equal(quoted, "> line one\n> line t…");
});

Deno.test("more than 25 fields are cut to 25; empty names and values become blank", () => {
  const embed = onlyEmbed({
    title: "t",
    fields: [
      field("", []),
      ...Array.from({ length: 40 }, (_, index) => field(`F${index}`, text(`${index}`))),
    ],
  });
  assert.equal(embed.fields?.length, DISCORD_LIMITS.fields);
  assert.deepEqual(embed.fields?.[0], { name: "\u200b", value: "\u200b", inline: true });
});

Deno.test("the embed total stays within 6,000 and the description keeps room", () => {
  const embed = onlyEmbed({
    title: "T".repeat(300),
    author: { name: "A".repeat(300) },
    footer: { repository: "r".repeat(3000), provider: "github" },
    description: [line(text("d".repeat(5000)))],
    fields: Array.from({ length: 25 }, (_, index) => field(`F${index}`, text("v".repeat(1100)))),
  });
  assert.ok(embedTotal(embed) <= DISCORD_LIMITS.total, `total ${embedTotal(embed)}`);
  assert.ok((embed.description ?? "").length >= 900, "description squeezed out");
  assert.ok((embed.fields ?? []).length >= 1);
});

Deno.test("a commit list of 20 long commits fits every limit", async () => {
  const payload = await fixtureJson("push/with-new-branch.payload.json");
  const template = (payload.commits as Record<string, unknown>[])[0];
  payload.commits = Array.from({ length: 20 }, (_, index) => ({
    ...template,
    id: `${index}`.padStart(40, "f"),
    message: `${"Very long subject ".repeat(30)}\n${"body ".repeat(500)}`,
  }));
  const embed = onlyEmbed(format("push", payload));
  assert.ok(embedTotal(embed) <= DISCORD_LIMITS.total);
  assert.ok((embed.description ?? "").length <= DISCORD_LIMITS.description);
});

Deno.test("cuts never split a surrogate pair", () => {
  const embed = onlyEmbed({
    title: "😀".repeat(200),
    description: [line(text("🎉".repeat(3000)))],
  });
  assert.ok(!hasLoneSurrogate(embed.title ?? ""));
  assert.ok(!hasLoneSurrogate(embed.description ?? ""));
  assert.ok((embed.title ?? "").length <= DISCORD_LIMITS.title);
});
