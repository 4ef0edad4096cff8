/**
 * What every fault scenario shares: fake platforms behind a fault proxy, the
 * count of what the chats received, and the scenario's row of figures (events
 * acknowledged, messages delivered, duplicates, lost, dead letters with their
 * reasons, 429s received, time to drain) read from the fakes and the store.
 */
import type { Kv } from "../../lib/store/backend/types.ts";
import { listSendLogs, type SendLog } from "../../lib/store/delivery/send_logs.ts";
import type { FakeChat } from "../../testing/fake_chat.ts";

/** What a fault proxy does with one request: pass it on, answer it, or never answer. */
export type FaultAnswer = "pass" | "hang" | Response;

/** A proxy in front of a fake platform that injects faults. */
export interface FaultProxy extends AsyncDisposable {
  url: string;
  /** 429 answers given by the proxy itself. */
  rateLimited(): number;
}

/** How long a hanging request is held (longer than a platform call's 10 s timeout). */
const HANG_MS = 11_000;

/** Starts a proxy to `upstream` that asks `decide` about every request. */
export function startFaultProxy(
  upstream: string,
  decide: (request: Request) => FaultAnswer,
): FaultProxy {
  let rateLimited = 0;
  const hanging = new Set<() => void>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const answer = decide(req);
    if (answer instanceof Response) {
      if (answer.status === 429) rateLimited++;
      return answer;
    }
    if (answer === "hang") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, HANG_MS);
        function done() {
          clearTimeout(timer);
          hanging.delete(done);
          resolve();
        }
        hanging.add(done);
      });
      return new Response("gateway timeout", { status: 504 });
    }
    const url = new URL(req.url);
    return await fetch(`${upstream}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body: req.method === "GET" ? undefined : await req.arrayBuffer(),
    });
  });
  const close = async () => {
    for (const done of [...hanging]) done();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    rateLimited: () => rateLimited,
    [Symbol.asyncDispose]: close,
  };
}

/** One row of the fault table. */
export interface FaultRow {
  scenario: string;
  acknowledged: number;
  expected: number;
  delivered: number;
  /** Messages shown twice, by fake (Discord / Telegram). */
  duplicates: string;
  lost: number;
  deadLetters: number;
  /** 429s answered, Discord / Telegram. */
  rateLimited: string;
  drainMs: number | null;
  /** Per-target order kept in every chat. */
  inOrder: boolean;
  /** Why each dead letter is dead, with counts. */
  reasons: string[];
}

/** The title of a message as a fake received it. */
export function titleOf(body: Record<string, unknown>): string {
  if (Array.isArray(body.embeds)) return String((body.embeds[0] as { title: string }).title);
  return String(body.text).replace(/<[^>]+>/g, "").replace(/^\W+/, "").split("\n")[0].trim();
}

/** Every send log of the store. */
export async function allSendLogs(kv: Kv): Promise<SendLog[]> {
  const logs: SendLog[] = [];
  let cursor: string | undefined;
  do {
    const page = await listSendLogs(kv, { limit: 200, cursor });
    logs.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return logs;
}

/**
 * Waits until `expected` units exist and none is `retrying`, or `limitMs` passes. With
 * `counted`, only the units of the events it names count (events that were stored but never
 * acknowledged are delivered too, and must not end the wait early).
 */
export async function drain(
  kv: Kv,
  expected: number,
  startedAt: number,
  limitMs: number,
  counted?: (eventId: string) => boolean,
): Promise<number | null> {
  while (Date.now() - startedAt < limitMs) {
    const logs = (await allSendLogs(kv)).filter((log) => !counted || counted(log.eventId));
    if (logs.length >= expected && logs.every((log) => log.status !== "retrying")) {
      return Date.now() - startedAt;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return null;
}

/**
 * The row of a scenario: what the chats received (titles `Event <n>`) against
 * what was acknowledged (`accepted`: event id → n; order is event id order),
 * and what the store says of the rest.
 */
export async function rowOf(
  scenario: string,
  kv: Kv,
  fakes: FakeChat[],
  accepted: Map<string, number>,
  targetsPerEvent: number,
  rateLimited: string,
  drainMs: number | null,
): Promise<FaultRow> {
  const acknowledged = [...accepted].sort(([a], [b]) => a < b ? -1 : 1).map(([, n]) => n);
  const acked = new Set(acknowledged.map((n) => `Event ${n}`));
  const seen = new Map<string, number>();
  const duplicatesBy: number[] = [];
  let inOrder = true;
  for (const fake of fakes) {
    const before = [...seen.values()].reduce((sum, count) => sum + count - 1, 0);
    const lastByChat = new Map<string, number>();
    for (const message of fake.received) {
      const title = titleOf(message.body);
      const key = `${message.chat} ${title}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const number = acknowledged.indexOf(Number(title.replace("Event ", "")));
      if (number !== -1) {
        if (number < (lastByChat.get(message.chat) ?? -1)) inOrder = false;
        lastByChat.set(message.chat, number);
      }
    }
    duplicatesBy.push([...seen.values()].reduce((sum, count) => sum + count - 1, 0) - before);
  }
  const delivered = [...seen.keys()].filter((key) => acked.has(key.slice(key.indexOf(" ") + 1)));
  const logs = await allSendLogs(kv);
  const dead = logs.filter((log) => log.status === "dead" || log.status === "failed");
  const reasons = new Map<string, number>();
  for (const log of dead) {
    const reason = `${log.status}: ${(log.error ?? "").replace(/\d+(\.\d+)?/g, "N").slice(0, 90)}`;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const deliveredKeys = new Set(delivered);
  const deadNotDelivered = dead.filter((log) => {
    const chat = log.target.platform === "discord"
      ? log.target.threadId ?? log.target.channelId
      : log.target.chatId;
    return !deliveredKeys.has(`${chat} Event ${accepted.get(log.eventId)}`);
  }).length;
  const expected = acknowledged.length * targetsPerEvent;
  return {
    scenario,
    acknowledged: acknowledged.length,
    expected,
    delivered: delivered.length,
    duplicates: duplicatesBy.join(" / "),
    lost: Math.max(0, expected - delivered.length - deadNotDelivered),
    deadLetters: dead.length,
    rateLimited,
    drainMs,
    inOrder,
    reasons: [...reasons].map(([reason, count]) => `${count} × ${reason}`),
  };
}

/** The table of rows, as Markdown. */
export function tableOf(rows: FaultRow[]): string {
  const head =
    "| scenario | events acknowledged | messages expected | delivered | duplicates (Discord / Telegram) | lost | dead letters | 429s received (Discord / Telegram) | time to drain | order kept |\n" +
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  const body = rows.map((row) =>
    `| ${row.scenario} | ${row.acknowledged} | ${row.expected} | ${row.delivered} | ${row.duplicates} | ${row.lost} | ${row.deadLetters} | ${row.rateLimited} | ${
      row.drainMs === null ? "not drained" : `${(row.drainMs / 1000).toFixed(1)} s`
    } | ${row.inOrder ? "yes" : "no"} |`
  ).join("\n");
  const reasons = rows.filter((row) => row.reasons.length > 0).map((row) =>
    `- ${row.scenario}: ${row.reasons.join("; ")}`
  ).join("\n");
  return `${head}${body}\n\nDead letters:\n\n${reasons || "- none"}\n`;
}
