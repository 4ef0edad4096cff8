/** Short text messages in Discord markdown (`chat_text.ts`): in `content`, no embed. */
import type { ChatText } from "./chat_text.ts";
import type { DiscordMessageBody } from "./discord.ts";
import { escapeMarkdown } from "./text.ts";

/** Discord's way of writing a short text message. */
export const DISCORD_TEXT: ChatText = {
  limit: 1900,
  escape: escapeMarkdown,
  plain: (text) => text,
  bold: (text) => `**${text}**`,
  link: (text, url) => `[${text}](<${url}>)`,
  mention: (userId) => `<@${userId}>`,
  body(text, mentionable): DiscordMessageBody {
    if (mentionable === undefined) {
      return { content: text, embeds: [], allowed_mentions: { parse: [] } };
    }
    const users = [...new Set(mentionable)].filter((id) => text.includes(`<@${id}>`));
    return { content: text, embeds: [], allowed_mentions: { parse: [], users } };
  },
};
