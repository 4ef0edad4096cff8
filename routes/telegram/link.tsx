import { ChatLinkPanel } from "../../components/ChatLinkPanel.tsx";
import { showLinkPage, submitLinkPage } from "../../lib/auth/chat_link_pages.ts";
import { chatLinkAnnouncer } from "../../lib/chatops/link_confirmation.ts";
import { define } from "../../lib/state.ts";

/**
 * The page a Telegram link command sends its user to: it names the Telegram account, continues to
 * GitHub on a same-origin POST, and links on the second confirmation the callback asks for.
 */
export const handler = define.handlers({
  GET: (ctx) => showLinkPage(ctx, "telegram"),
  POST: (ctx) => submitLinkPage(ctx, "telegram", chatLinkAnnouncer(ctx.state.adapters)),
});

/** The Telegram account to link, the linked pair, or a dead link. */
export default define.page<typeof handler>(function TelegramLinkPage({ data }) {
  return <ChatLinkPanel view={data} />;
});
