/**
 * What chat-ops reads from a Telegram update, validated and bounded: a text message (a
 * command, maybe a reply to a notification) or a button press. Everything else in an update
 * is ignored; an update that is not an object with a numeric `update_id` is refused.
 */
import { z } from "zod";

const id = z.number().int().safe();
const name = z.string().max(256);

const user = z.object({
  id,
  is_bot: z.boolean().optional(),
  username: z.string().max(64).optional(),
  first_name: name.optional(),
});

const chat = z.object({
  id,
  type: z.string().max(32),
  username: z.string().max(64).optional(),
});

/** The keyboard of a message, as far as chat-ops reads it back. */
const keyboard = z.object({
  inline_keyboard: z.array(
    z.array(
      z.object({
        text: z.string().max(256),
        url: z.string().max(2048).optional(),
        callback_data: z.string().max(64).optional(),
      }).loose(),
    ).max(16),
  ).max(16),
}).loose();

const repliedTo = z.object({
  message_id: id,
  date: id.optional(),
  chat: chat.optional(),
  text: z.string().max(4096).optional(),
  caption: z.string().max(4096).optional(),
}).loose();

const message = z.object({
  message_id: id,
  message_thread_id: id.optional(),
  is_topic_message: z.boolean().optional(),
  from: user.optional(),
  chat,
  date: id,
  text: z.string().max(4096).optional(),
  reply_to_message: repliedTo.optional(),
  reply_markup: keyboard.optional(),
}).loose();

const callbackQuery = z.object({
  id: z.string().min(1).max(128),
  from: user,
  message: message.optional(),
  inline_message_id: z.string().max(256).optional(),
  data: z.string().max(64).optional(),
}).loose();

/** A text message as chat-ops reads it. */
export type IncomingMessage = z.infer<typeof message>;

/** A button press as chat-ops reads it. */
export type ButtonPress = z.infer<typeof callbackQuery>;

/** A message keyboard as chat-ops reads it back. */
export type IncomingKeyboard = z.infer<typeof keyboard>;

/** What an update asks of chat-ops. */
export type UpdateWork =
  | { kind: "message"; updateId: number; message: IncomingMessage }
  | { kind: "button"; updateId: number; press: ButtonPress }
  /** A press whose details are unreadable: it is still answered, with a refusal. */
  | { kind: "unreadable_button"; updateId: number; queryId: string }
  | { kind: "ignored"; updateId: number };

const envelope = z.object({ update_id: id.nonnegative() }).loose();
const queryId = z.object({ id: z.string().min(1).max(128) }).loose();

/** The update's work, or null when `body` is not an update at all. */
export function readUpdate(body: unknown): UpdateWork | null {
  const parsed = envelope.safeParse(body);
  if (!parsed.success) return null;
  const update = parsed.data;
  const updateId = update.update_id;
  if (update.message !== undefined) {
    const read = message.safeParse(update.message);
    if (read.success && read.data.text !== undefined) {
      return { kind: "message", updateId, message: read.data };
    }
    return { kind: "ignored", updateId };
  }
  if (update.callback_query !== undefined) {
    const read = callbackQuery.safeParse(update.callback_query);
    if (read.success) return { kind: "button", updateId, press: read.data };
    const bare = queryId.safeParse(update.callback_query);
    return bare.success
      ? { kind: "unreadable_button", updateId, queryId: bare.data.id }
      : { kind: "ignored", updateId };
  }
  return { kind: "ignored", updateId };
}
