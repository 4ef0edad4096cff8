/**
 * `GET /api/richheader`: the link-preview card. Only cards the product made render: their link
 * carries a signature over its parameters; any other query answers 404. A product-made card is
 * checked, escaped and cacheable.
 */
import assert from "node:assert/strict";
import { createApp } from "../../lib/app.ts";
import { type RichHeaderCard, richHeaderLink } from "../../lib/chatops/telegram/rich_header.ts";
import { snapshotChanges, snapshotStore } from "../../testing/store_snapshot.ts";
import { captureLog, startTestApp, type TestApp } from "../_helpers.ts";

/** The path and query of the link the product makes for `card`. */
async function productLink(t: TestApp, card: RichHeaderCard): Promise<string> {
  const link = new URL(await richHeaderLink(t.kv, t.config, card));
  assert.equal(link.origin, new URL(t.config.baseUrl).origin);
  assert.equal(link.pathname, "/api/richheader");
  return `${link.pathname}${link.search}`;
}

/** The query of `path` with `change` applied to it. */
function changed(path: string, change: (query: URLSearchParams) => void): string {
  const url = new URL(path, "http://localhost");
  change(url.searchParams);
  return `${url.pathname}?${url.searchParams}`;
}

function metaOf(html: string, property: string): string | undefined {
  const match = html.match(new RegExp(`<meta property="${property}" content="([^"]*)">`));
  return match?.[1];
}

Deno.test("a product-made card for a pull request: Open Graph tags on the configured GitHub, cacheable", async () => {
  await using t = await startTestApp({ GITHUB_URL: "https://github.example" });
  const res = await t.fetch(
    await productLink(t, {
      title: "Pull request opened: #12 Faster builds",
      description: "octo/site · 3 files changed",
      ref: "octo/site#12",
      kind: "pull",
    }),
  );
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^text\/html/);
  assert.equal(res.headers.get("cache-control"), "public, max-age=86400");
  assert.equal(res.headers.get("location"), null);
  const html = await res.text();
  assert.equal(metaOf(html, "og:title"), "Pull request opened: #12 Faster builds");
  assert.equal(metaOf(html, "og:description"), "octo/site · 3 files changed");
  assert.equal(metaOf(html, "og:url"), "https://github.example/octo/site/pull/12");
  assert.equal(metaOf(html, "og:image"), "https://github.example/octo.png");
  assert.equal(metaOf(html, "og:site_name"), "Switchyard");
});

Deno.test("needs no bearer token, and a repository ref links the repository", async () => {
  await using t = await startTestApp();
  const res = await t.fetch(await productLink(t, { title: "Release v1", ref: "octo/site" }));
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.equal(metaOf(html, "og:url"), "https://github.com/octo/site");
  assert.equal(metaOf(html, "og:description"), undefined);
});

Deno.test("a card the product did not make answers 404", async () => {
  await using t = await startTestApp();
  await using other = await startTestApp();
  const made = await productLink(t, {
    title: "Issue opened: #3 Crash",
    description: "octo/site",
    ref: "octo/site#3",
    kind: "issues",
  });
  const fromOtherStore = await productLink(other, { title: "Issue opened: #3 Crash" });
  const cases: [string, string][] = [
    ["unsigned", "/api/richheader?title=Your+account+is+locked"],
    ["unsigned with every parameter", changed(made, (q) => q.delete("sig"))],
    ["title changed", changed(made, (q) => q.set("title", "Your account is locked"))],
    ["description changed", changed(made, (q) => q.set("description", "call +1 555"))],
    ["description dropped", changed(made, (q) => q.delete("description"))],
    ["ref changed", changed(made, (q) => q.set("ref", "evil/site#3"))],
    ["kind changed", changed(made, (q) => q.set("kind", "pull"))],
    ["parameter added", changed(made, (q) => q.set("url", "https://evil.example"))],
    ["parameter repeated", changed(made, (q) => q.append("title", "again"))],
    ["signature repeated", changed(made, (q) => q.append("sig", q.get("sig")!))],
    [
      "signature altered",
      changed(made, (q) => {
        const sig = q.get("sig")!;
        q.set("sig", `${sig.startsWith("A") ? "B" : "A"}${sig.slice(1)}`);
      }),
    ],
    ["signature empty", changed(made, (q) => q.set("sig", ""))],
    [
      "title and description swapped",
      changed(made, (q) => {
        const title = q.get("title")!;
        q.set("title", q.get("description")!);
        q.set("description", title);
      }),
    ],
    ["signed by another store", fromOtherStore],
    ["too long", `${made}&x=${"y".repeat(9000)}`],
  ];
  for (const [name, path] of cases) {
    const res = await t.fetch(path);
    assert.equal(res.status, 404, name);
    assert.deepEqual(await res.json(), { error: "Not found" }, name);
  }
  const res = await t.fetch(made);
  assert.equal(res.status, 200, "the link as made still renders");
  await res.body?.cancel();
});

Deno.test("a query to a store that never signed a card answers 404 and writes nothing", async () => {
  await using t = await startTestApp();
  const before = await snapshotStore(t.kv);
  const forged = `/api/richheader?title=Sign+in+again&sig=${"A".repeat(43)}`;
  for (const path of ["/api/richheader?title=Sign+in+again", forged]) {
    const res = await t.fetch(path);
    assert.equal(res.status, 404, path);
    await res.body?.cancel();
  }
  assert.deepEqual(snapshotChanges(before, await snapshotStore(t.kv)), []);
});

Deno.test("a card made by one instance renders on every instance of the same store", async () => {
  await using t = await startTestApp();
  const path = await productLink(t, { title: "Push to main", ref: "octo/site" });
  const second = createApp({ kv: t.kv, config: t.config, log: captureLog().log });
  const res = await second.fetch(new Request(`http://localhost${path}`));
  assert.equal(res.status, 200);
  assert.equal(metaOf(await res.text(), "og:title"), "Push to main");
  assert.equal(path, await productLink(t, { title: "Push to main", ref: "octo/site" }));
});

Deno.test("hostile values are escaped everywhere and never become markup", async () => {
  await using t = await startTestApp();
  const hostile =
    `"><script>alert(1)</script><meta property="og:url" content="https://evil.example">'&`;
  const res = await t.fetch(await productLink(t, { title: hostile, description: hostile }));
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(!html.includes("<script"));
  assert.ok(!html.includes('evil.example">'));
  assert.equal(html.match(/<meta property="og:url"/g), null);
  const escaped =
    "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;meta property=&quot;og:url&quot; " +
    "content=&quot;https://evil.example&quot;&gt;&#39;&amp;";
  assert.equal(metaOf(html, "og:title"), escaped);
  assert.equal(metaOf(html, "og:description"), escaped);
  assert.ok(html.includes(`<h1>${escaped}</h1>`));
});

Deno.test("the link builder keeps text within the card's limits and refuses a bad ref or kind", async () => {
  await using t = await startTestApp();
  const path = await productLink(t, {
    title: `  A\u0000 long\n\ttitle ${"x".repeat(400)}`,
    description: "d".repeat(1500),
  });
  const res = await t.fetch(path);
  assert.equal(res.status, 200);
  const html = await res.text();
  const title = metaOf(html, "og:title")!;
  assert.equal(title.length, 256);
  assert.ok(title.startsWith("A long title xxx"), title);
  assert.ok(title.endsWith("…"));
  assert.equal(metaOf(html, "og:description")!.length, 1000);
  const refused: [RichHeaderCard, RegExp][] = [
    [{ title: " \n " }, /^title: must not be empty$/],
    [{ title: "ok", ref: "https://evil.example/x" }, /^ref: must be owner\/repo/],
    [{ title: "ok", ref: "octo/.." }, /^ref: must be owner\/repo/],
    [{ title: "ok", ref: "octo/site#0" }, /^ref: must be owner\/repo/],
    [{ title: "ok", ref: "octo/site", kind: "pull" }, /^kind: only with a numbered ref$/],
  ];
  for (const [card, expected] of refused) {
    await assert.rejects(
      richHeaderLink(t.kv, t.config, card),
      { message: expected },
      JSON.stringify(card),
    );
  }
});

Deno.test("the card answers GET only", async () => {
  await using t = await startTestApp();
  const res = await t.fetch(await productLink(t, { title: "x" }), { method: "POST" });
  assert.equal(res.status, 405);
  await res.body?.cancel();
});
