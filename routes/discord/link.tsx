import { ChatLinkPanel } from "../../components/ChatLinkPanel.tsx";
import { showLinkPage, submitLinkPage } from "../../lib/auth/chat_link_pages.ts";
import { chatLinkAnnouncer } from "../../lib/chatops/link_confirmation.ts";
import { define } from "../../lib/state.ts";

/**
 * The page a Discord link command sends its user to: it names the Discord account, continues to
 * GitHub on a same-origin POST, and links on the second confirmation the callback asks for.
 */
export const handler = define.handlers({
  GET: (ctx) => showLinkPage(ctx, "discord"),
  POST: (ctx) => submitLinkPage(ctx, "discord", chatLinkAnnouncer(ctx.state.adapters)),
});

/** The Discord account to link, the linked pair, or a dead link. */
export default define.page<typeof handler>(function DiscordLinkPage({ data }) {
  return <ChatLinkPanel view={data} />;
});
