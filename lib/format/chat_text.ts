/**
 * Short text messages (a reminder, a notice) in a platform's own markup: each platform's
 * formatter gives one {@link ChatText} (`discord_text.ts`, `telegram_text.ts`), so the
 * messages themselves are written once.
 */

/** How one platform writes a short text message. */
export interface ChatText {
  /** Most characters a text message is cut to (below the platform's hard limit). */
  readonly limit: number;
  /** `text` with the platform's markup characters escaped. */
  escape(text: string): string;
  /** `text` as it is sent on its own (escaped where the platform would read it as markup). */
  plain(text: string): string;
  /** `text` (already escaped) in bold. */
  bold(text: string): string;
  /** `text` (already escaped) linking to `url`. */
  link(text: string, url: string): string;
  /** A mention of the chat user `userId`, known to the message as `@login`. */
  mention(userId: string, login: string): string;
  /**
   * The message body of `text`; `mentionable` (when given) names the users it may ping, and
   * only those it names are pinged.
   */
  body(text: string, mentionable?: Iterable<string>): unknown;
}
