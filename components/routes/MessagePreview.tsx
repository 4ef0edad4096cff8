/**
 * How the sample event will look in the chats: the formatter's real output (from the preview
 * endpoint) drawn as a Discord embed and a Telegram message. The markup is read into elements
 * (`lib/console/markup.ts`), never inserted as HTML.
 */
import { useEffect, useState } from "preact/hooks";
import { adminApi } from "../api/admin_api.ts";
import {
  type MarkupNode,
  parseDiscordMarkdown,
  parseTelegramHtml,
} from "../../lib/console/markup.ts";
import type { SampleEvent } from "../../lib/console/tree_check.ts";
import type { RouteTemplate } from "../../lib/types.ts";
import { ERROR, MUTED } from "./ui.tsx";

interface Embed {
  title?: string;
  url?: string;
  description?: string;
  color?: number;
  author?: { name: string; url?: string };
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  timestamp?: string;
}

interface Preview {
  discord: { content?: string; embeds: Embed[] } | null;
  telegram: { text: string } | null;
  templateError?: string;
}

/** How long the sample must stay unchanged before the preview is asked for. */
const PREVIEW_DELAY_MS = 250;

/** Markup as elements. */
export function Markup(props: { nodes: MarkupNode[] }) {
  return (
    <>
      {props.nodes.map((node, index) => {
        if (typeof node === "string") return node;
        const children = <Markup nodes={node.children} />;
        switch (node.tag) {
          case "b":
            return <strong key={index}>{children}</strong>;
          case "i":
            return <em key={index}>{children}</em>;
          case "u":
            return <u key={index}>{children}</u>;
          case "s":
            return <s key={index}>{children}</s>;
          case "code":
          case "pre":
            return (
              <code
                key={index}
                class="rounded bg-black/10 px-1 font-mono text-[0.85em] dark:bg-white/10"
              >
                {children}
              </code>
            );
          case "blockquote":
            return (
              <span key={index} class="my-1 block border-l-4 border-current/30 pl-2 opacity-90">
                {children}
              </span>
            );
          case "a":
            return node.href
              ? (
                <a
                  key={index}
                  href={node.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  class="text-sky-800 underline dark:text-sky-300"
                >
                  {children}
                </a>
              )
              : <span key={index}>{children}</span>;
        }
      })}
    </>
  );
}

function DiscordEmbed(props: { embed: Embed }) {
  const { embed } = props;
  const color = embed.color === undefined
    ? "#4f545c"
    : `#${embed.color.toString(16).padStart(6, "0")}`;
  return (
    <div
      data-testid="discord-preview"
      class="flex overflow-hidden rounded bg-[#f2f3f5] text-[13px] text-[#2e3338] dark:bg-[#2b2d31] dark:text-[#dbdee1]"
    >
      <div class="w-1 shrink-0" style={{ backgroundColor: color }} />
      <div class="min-w-0 flex-1 p-3">
        {embed.author && <p class="mb-1 text-xs font-semibold">{embed.author.name}</p>}
        {embed.title && (
          <p class="break-words font-semibold text-sky-700 dark:text-sky-300">
            {embed.url
              ? (
                <a
                  href={embed.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  class="hover:underline"
                >
                  {embed.title}
                </a>
              )
              : embed.title}
          </p>
        )}
        {embed.description && (
          <p class="mt-1 whitespace-pre-wrap break-words">
            <Markup nodes={parseDiscordMarkdown(embed.description)} />
          </p>
        )}
        {embed.fields && embed.fields.length > 0 && (
          <dl class="mt-2 grid grid-cols-2 gap-2">
            {embed.fields.map((field, index) => (
              <div key={index} class={field.inline ? "" : "col-span-2"}>
                <dt class="text-xs font-semibold">{field.name}</dt>
                <dd class="break-words">
                  <Markup nodes={parseDiscordMarkdown(field.value)} />
                </dd>
              </div>
            ))}
          </dl>
        )}
        {embed.footer && <p class="mt-2 text-[11px] opacity-80">{embed.footer.text}</p>}
      </div>
    </div>
  );
}

/** The preview panel's content for the sample event (with the route's template, when given). */
export function MessagePreview(
  props: { event: SampleEvent | null; roleIds: string[]; template?: RouteTemplate },
) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const event = props.event;
  const key = event
    ? JSON.stringify([event.kind, event.action, props.roleIds, props.template])
    : null;
  useEffect(() => {
    if (!event) return;
    let current = true;
    const timer = setTimeout(() => {
      const name = event.action ? `${event.kind}.${event.action}` : event.kind;
      const roleIds = props.roleIds.filter((id) => /^\d{1,20}$/.test(id));
      adminApi("POST /admin/api/preview", {
        body: {
          event: name,
          payload: event.payload,
          ...(roleIds.length > 0 ? { discordRoleIds: roleIds } : {}),
          ...(props.template ? { template: props.template } : {}),
        },
      }).then(
        (answer) => {
          if (!current) return;
          setPreview(answer.data);
          setError(null);
        },
        (failure) => current && setError((failure as Error).message),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, event?.payload]);

  if (!event) return <p class={`text-sm ${MUTED}`}>Choose a sample event to see its messages.</p>;
  if (error) return <p class={ERROR}>The preview failed: {error}</p>;
  if (!preview) return <p class={`text-sm ${MUTED}`}>Rendering…</p>;
  if (!preview.discord || !preview.telegram) {
    return <p class={`text-sm ${MUTED}`}>This kind of event is never sent to a chat.</p>;
  }
  return (
    <div class="flex flex-col gap-4">
      {preview.templateError && (
        <p class={ERROR} data-testid="preview-template-error">
          The built-in message is shown: {preview.templateError}
        </p>
      )}
      <section aria-labelledby="preview-discord">
        <h3 id="preview-discord" class="mb-1.5 text-xs font-semibold uppercase tracking-wide">
          Discord
        </h3>
        {preview.discord.content && <p class="mb-1 font-mono text-xs">{preview.discord.content}</p>}
        {preview.discord.embeds.map((embed, index) => <DiscordEmbed key={index} embed={embed} />)}
      </section>
      <section aria-labelledby="preview-telegram">
        <h3 id="preview-telegram" class="mb-1.5 text-xs font-semibold uppercase tracking-wide">
          Telegram
        </h3>
        <div
          data-testid="telegram-preview"
          class="whitespace-pre-wrap break-words rounded-lg rounded-bl-none bg-[#effdde] p-3 text-[13px] text-slate-900 shadow-sm dark:bg-[#2b5278] dark:text-white"
        >
          <Markup nodes={parseTelegramHtml(preview.telegram.text)} />
        </div>
      </section>
    </div>
  );
}
