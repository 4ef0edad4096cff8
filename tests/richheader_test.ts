/** `GET /api/richheader`: the link-preview card, its checks, escaping and caching. */
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "./_helpers.ts";

async function card(t: TestApp, query: Record<string, string> | string): Promise<Response> {
  const search = typeof query === "string" ? query : new URLSearchParams(query).toString();
  return await t.fetch(`/api/richheader?${search}`);
}

function metaOf(html: string, property: string): string | undefined {
  const match = html.match(new RegExp(`<meta property="${property}" content="([^"]*)">`));
  return match?.[1];
}

Deno.test("a card for a pull request: Open Graph tags on the configured GitHub, cacheable", async () => {
  await using t = await startTestApp({ GITHUB_URL: "https://github.example" });
  const res = await card(t, {
    title: "Pull request opened: #12 Faster builds",
    description: "octo/site · 3 files changed",
    ref: "octo/site#12",
    kind: "pull",
  });
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
  const res = await card(t, { title: "Release v1", ref: "octo/site" });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.equal(metaOf(html, "og:url"), "https://github.com/octo/site");
  assert.equal(metaOf(html, "og:description"), undefined);
});

Deno.test("hostile values are escaped everywhere and never become markup", async () => {
  await using t = await startTestApp();
  const hostile =
    `"><script>alert(1)</script><meta property="og:url" content="https://evil.example">'&`;
  const res = await card(t, { title: hostile, description: hostile });
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

Deno.test("bad parameters: 400 with a JSON error naming the parameter", async () => {
  await using t = await startTestApp();
  const cases: [Record<string, string> | string, RegExp][] = [
    [{}, /^title: required$/],
    [{ title: "   " }, /^title: must not be empty$/],
    [{ title: "x".repeat(257) }, /^title: at most 256 characters$/],
    [{ title: "a\u0000b" }, /^title: must not hold control characters$/],
    [{ title: "ok", description: "d".repeat(1001) }, /^description: at most 1000/],
    ["title=a&title=b", /^title: give it at most once$/],
    [{ title: "ok", url: "https://evil.example" }, /^Unknown parameter "url"/],
    [{ title: "ok", "<script>": "1" }, /^Unknown parameter "<script>"/],
    [{ title: "ok", ref: "https://evil.example/x" }, /^ref: must be owner\/repo/],
    [{ title: "ok", ref: "octo/.." }, /^ref: must be owner\/repo/],
    [{ title: "ok", ref: "-octo/site" }, /^ref: must be owner\/repo/],
    [{ title: "ok", ref: "octo/site#0" }, /^ref: must be owner\/repo/],
    [{ title: "ok", ref: "octo/site#1", kind: "javascript" }, /^kind: must be pull or issues$/],
    [{ title: "ok", ref: "octo/site", kind: "pull" }, /^kind: only with a numbered ref$/],
    [{ title: "x".repeat(9000) }, /^The query is too long$/],
  ];
  for (const [query, expected] of cases) {
    const res = await card(t, query);
    assert.equal(res.status, 400, JSON.stringify(query));
    const body = await res.json();
    assert.match(body.error, expected, JSON.stringify(query));
  }
});

Deno.test("the card answers GET only", async () => {
  await using t = await startTestApp();
  const res = await t.fetch("/api/richheader?title=x", { method: "POST" });
  assert.equal(res.status, 405);
  await res.body?.cancel();
});
