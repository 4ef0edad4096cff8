/**
 * Test helpers for Discord interactions: an Ed25519 key pair standing in for Discord's, signed
 * interaction requests, and a fake of the interaction webhooks and command registration that
 * passes every other request (channel messages) on to the fake chat API.
 */
import { toHex, utf8 } from "../lib/encoding.ts";

/** Discord's signing key for a test: the private half signs, the public half goes to settings. */
export interface DiscordKeys {
  privateKey: CryptoKey;
  publicKeyHex: string;
}

/** Generates a fresh key pair. */
export async function discordKeys(): Promise<DiscordKeys> {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { privateKey: pair.privateKey, publicKeyHex: toHex(raw) };
}

/** Signature headers for `body` at `timestamp` (seconds, now by default). */
export async function signatureHeaders(
  keys: DiscordKeys,
  body: string,
  timestamp = String(Math.floor(Date.now() / 1000)),
): Promise<Record<string, string>> {
  const signed = utf8(timestamp + body);
  const signature = await crypto.subtle.sign({ name: "Ed25519" }, keys.privateKey, signed);
  return {
    "content-type": "application/json",
    "x-signature-ed25519": toHex(new Uint8Array(signature)),
    "x-signature-timestamp": timestamp,
  };
}

/** One request the fake received. */
export interface WebhookCall {
  method: string;
  path: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** The running fake. */
export interface FakeDiscordWebhooks extends AsyncDisposable {
  url: string;
  calls: WebhookCall[];
  /** Calls to the interaction webhooks of `token`. */
  callsFor(token: string): WebhookCall[];
}

/**
 * Starts the fake: `PATCH /webhooks/{app}/{token}/messages/@original`, `POST /webhooks/{app}/
 * {token}` and `PUT /applications/{app}[/guilds/{guild}]/commands` are answered here; anything
 * else goes to `upstream` (the fake chat API), when given.
 */
export function startFakeDiscordWebhooks(upstream?: string): FakeDiscordWebhooks {
  const calls: WebhookCall[] = [];
  let counter = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path.startsWith("/webhooks/") || path.startsWith("/applications/")) {
      const text = await req.text();
      const body = text ? JSON.parse(text) : {};
      calls.push({ method: req.method, path, headers: req.headers, body });
      if (req.method === "PUT") {
        return Response.json(
          (body as { name: string }[]).map((command) => ({ ...command, id: String(++counter) })),
        );
      }
      return Response.json({ id: String(++counter), ...body });
    }
    if (!upstream) return Response.json({ message: "404: Not Found" }, { status: 404 });
    return await fetch(`${upstream}${path}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body: req.body,
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    calls,
    callsFor: (token) => calls.filter((call) => call.path.includes(`/${token}`)),
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
