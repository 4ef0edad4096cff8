/**
 * Message template benchmark: what a route's template costs per (event, route) at fan-out,
 * against the built-in message, on the real `pull_request.opened` payload (28 KB): parse the
 * template, render it into the neutral message, and render that for Discord and Telegram. The
 * last case is the worst a template can do: a walk that spends the whole step budget.
 *
 *   deno bench -A bench/template_bench.ts
 */
import { formatEvent, renderDiscord, renderTelegram } from "../lib/format/mod.ts";
import { renderTemplateMessage, TemplateRenderError } from "../lib/template/mod.ts";
import type { ForgeEvent, RouteTemplate } from "../lib/types.ts";

const payload = JSON.parse(
  await Deno.readTextFile(
    new URL("../fixtures/github/pull_request/opened.payload.json", import.meta.url),
  ),
);
const event: ForgeEvent = {
  id: "bench",
  provider: "github",
  kind: "pull_request",
  action: "opened",
  scope: { type: "global" },
  receivedAt: Date.now(),
  headers: {},
  payload,
};

const TEMPLATE: RouteTemplate = {
  title: "{{repository.full_name}}: {{truncate pull_request.title 80}}",
  body: [
    "{{bold sender.login}} {{action}} {{link pull_request.html_url (truncate pull_request.title 80)}}",
    "{{#if pull_request.labels}}",
    'Labels: {{join pull_request.labels[*].name ", "}}',
    "{{/if}}",
    "{{#each pull_request.requested_reviewers 5}}",
    "- review by {{link html_url login}}",
    "{{/each}}",
    "{{#if pull_request.body}}",
    "{{quote (truncate pull_request.body 300)}}",
    "{{/if}}",
  ].join("\n"),
};

const GREEDY: RouteTemplate = {
  body: "{{#each $..*}}{{#each $..*}}{{length $..*}}{{/each}}{{/each}}",
};

const builtIn = formatEvent(event)!;

Deno.bench("built-in message, rendered for Discord and Telegram", { baseline: true }, () => {
  const message = formatEvent(event)!;
  renderDiscord(message);
  renderTelegram(message);
});

Deno.bench("templated message (parse + render), rendered for Discord and Telegram", () => {
  const message = renderTemplateMessage(TEMPLATE, event, formatEvent(event)!);
  renderDiscord(message);
  renderTelegram(message);
});

Deno.bench("a template that spends its whole step budget (then falls back)", () => {
  try {
    renderTemplateMessage(GREEDY, event, builtIn);
  } catch (error) {
    if (!(error instanceof TemplateRenderError)) throw error;
  }
});
