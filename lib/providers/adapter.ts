/** The shape every provider adapter shares, and helpers they have in common. */
import type { Provider } from "../types.ts";

/** What a provider needs to verify a request. */
export interface SignedRequest {
  headers: Headers;
  /** The raw body bytes, exactly as received. */
  body: Uint8Array<ArrayBuffer>;
  /** Every secret currently valid for this provider and scope (rotation). */
  secrets: readonly string[];
  /** Unix milliseconds. */
  nowMs: number;
}

/** Outcome of a signature check; `nonce` is set when the sender used a single-use nonce. */
export type Verification = { ok: true; nonce?: string } | { ok: false; reason: string };

/** An event's kind and action, normalized to GitHub's names. */
export interface EventName {
  kind: string;
  action?: string;
}

/** One sender kind: how it signs, names its events and identifies deliveries. */
export interface ProviderAdapter {
  readonly provider: Provider;
  /** Checks the signature over the raw body. */
  verify(request: SignedRequest): Promise<Verification>;
  /** The event's name, or null when the event header is missing or malformed. */
  eventName(headers: Headers, payload: Record<string, unknown>): EventName | null;
  /** The sender's delivery id, when it sent one. */
  deliveryId(headers: Headers): string | undefined;
}

const EVENT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether a sender's event name is well formed: 1-64 letters, digits, `_` or `-`. */
export function isEventName(value: string): boolean {
  return EVENT_NAME.test(value);
}

/** A header's trimmed value when it is a well-formed event name, else null. */
export function eventHeader(headers: Headers, name: string): string | null {
  const value = headers.get(name)?.trim() ?? "";
  return isEventName(value) ? value : null;
}

/** The payload's `action` when it is a non-empty string. */
export function payloadAction(payload: Record<string, unknown>): string | undefined {
  const action = payload.action;
  return typeof action === "string" && action !== "" ? action : undefined;
}

/** The first of the named headers that has a non-empty value. */
export function firstHeader(headers: Headers, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = headers.get(name)?.trim();
    if (value) return value;
  }
  return undefined;
}
