import assert from "node:assert/strict";
import { createFreshApp } from "../../lib/fresh/app.ts";
import { HttpError, page, type PageProps } from "../../lib/fresh/mod.ts";
import { scriptSafeJson } from "../../lib/fresh/render.ts";
import { patternOf, sortRoutes } from "../../lib/fresh/route_table.ts";
import type { Manifest } from "../../lib/fresh/types.ts";
import { type ComponentChildren, h } from "preact";

interface TestState {
  trail: string[];
}

/** An error the application understands and answers 503 (as a store away for a moment). */
class BusyError extends Error {}

function Counter(props: { start: number; label: string }) {
  return h("button", { id: "counter" }, `${props.label} ${props.start}`);
}

function Outer(props: { children?: ComponentChildren; inner: number }) {
  return h("section", null, h(Counter, { start: props.inner, label: "inner" }), props.children);
}

const routes: Record<string, unknown> = {
  "_app.tsx": {
    default: ({ Component }: PageProps) =>
      h("html", null, h("head", null), h("body", null, h(Component, null))),
  },
  "_404.tsx": {
    default: ({ url }: PageProps) => h("p", { id: "missing" }, `missing ${url.pathname}`),
  },
  "_error.tsx": {
    default: ({ error }: PageProps) =>
      h(
        "p",
        { id: "error" },
        error instanceof HttpError
          ? `${error.status} ${error.message}`
          : "500 Internal server error",
      ),
  },
  "_middleware.ts": {
    handler: async (ctx: { state: TestState; next(): Promise<Response> }) => {
      ctx.state.trail.push("root");
      const res = await ctx.next();
      res.headers.set("x-trail", ctx.state.trail.join(">"));
      return res;
    },
  },
  "api/_middleware.ts": {
    handler: (ctx: { state: TestState; next(): Promise<Response> }) => {
      ctx.state.trail.push("api");
      return ctx.next();
    },
  },
  "guarded/_middleware.ts": {
    handler: () => Response.json({ error: "Sign in first" }, { status: 401 }),
  },
  "guarded/thing.ts": { handler: { GET: () => Response.json({ secret: true }) } },
  "index.tsx": { default: () => h("p", null, "home") },
  "api/items/index.ts": { handler: { GET: () => Response.json({ list: true }) } },
  "api/items/new.ts": { handler: { GET: () => Response.json({ fixed: "new" }) } },
  "api/items/[id].ts": {
    handler: {
      GET: (ctx: { params: Record<string, string>; state: TestState }) =>
        Response.json({ id: ctx.params.id, trail: ctx.state.trail }),
      DELETE: () => new Response(null, { status: 204 }),
    },
  },
  "api/files/[...path].ts": {
    handler: (ctx: { params: Record<string, string>; req: Request }) =>
      Response.json({ path: ctx.params.path, method: ctx.req.method }),
  },
  "api/fail.ts": {
    handler: {
      GET: () => {
        throw new HttpError(418, "Short and stout");
      },
      POST: () => {
        throw new Error("database password is hunter2");
      },
    },
  },
  "plain/fail.ts": {
    handler: () => {
      throw new HttpError(503, "Sign-in is not configured");
    },
  },
  "pages/fail.tsx": {
    default: () => h("p", null, "never"),
    handler: {
      GET: () => {
        throw new HttpError(403, "Not yours");
      },
    },
  },
  "pages/busy.tsx": {
    default: () => h("p", null, "never"),
    handler: {
      GET: () => {
        throw new BusyError("the store is away");
      },
    },
  },
  "pages/crash.tsx": {
    default: () => h("p", null, "never"),
    handler: {
      GET: () => {
        throw new Error("secret internals");
      },
    },
  },
  "pages/[name].tsx": {
    default: ({ data, params }: PageProps<{ payload: string }>) =>
      h("div", null, h("h1", null, params.name), h(Counter, { start: 3, label: data.payload })),
    handler: {
      GET: (ctx: { url: URL }) => page({ payload: ctx.url.searchParams.get("label") ?? "count" }),
    },
  },
  "pages/nested.tsx": {
    default: () => h("div", null, h(Outer, { inner: 7 })),
  },
};

const manifest = {
  routes,
  islands: { Counter: { default: Counter }, Outer: { default: Outer } },
} as unknown as Manifest;

function makeApp() {
  const errors: unknown[] = [];
  const app = createFreshApp<TestState>({
    manifest,
    assets: {
      client: "/_fresh/client-abc.js",
      islands: { Counter: "/_fresh/Counter-abc.js", Outer: "/_fresh/Outer-abc.js" },
      styles: { "styles.css": "/_fresh/styles-abc.css" },
    },
    root: "/nonexistent",
    createState: () => ({ trail: [] }),
    isApiPath: (path) => path.startsWith("/api/"),
    onUnexpectedError: (error) => errors.push(error),
    answerFor: (error) =>
      error instanceof BusyError ? new HttpError(503, "Busy for a moment") : null,
  });
  const fetch = (path: string, init?: RequestInit) =>
    Promise.resolve(app.fetch(new Request(`http://localhost${path}`, init)));
  return { fetch, errors };
}

Deno.test("patternOf() maps files to URL patterns", () => {
  assert.equal(patternOf("index.tsx").pattern, "/");
  assert.equal(patternOf("a/b.ts").pattern, "/a/b");
  assert.equal(patternOf("a/index.ts").pattern, "/a");
  assert.equal(patternOf("a/[id].ts").pattern, "/a/:id");
  assert.equal(patternOf("a/[id]/b.ts").pattern, "/a/:id/b");
  assert.equal(patternOf("a/[...rest].ts").pattern, "/a/:rest{.+}");
});

Deno.test("sortRoutes() puts static before dynamic before catch-all", () => {
  const sorted = sortRoutes(
    ["a/[...rest].ts", "a/[id].ts", "a/new.ts", "[x].ts", "a/[id]/edit.ts"].map(patternOf),
  );
  assert.deepEqual(sorted.map((e) => e.file), [
    "a/new.ts",
    "a/[id]/edit.ts",
    "a/[id].ts",
    "[x].ts",
    "a/[...rest].ts",
  ]);
});

Deno.test("routing prefers static segments and passes params", async () => {
  const { fetch } = makeApp();
  assert.deepEqual(await (await fetch("/api/items/new")).json(), { fixed: "new" });
  const dynamic = await (await fetch("/api/items/42")).json();
  assert.equal(dynamic.id, "42");
  assert.deepEqual(await (await fetch("/api/items")).json(), { list: true });
  const rest = await (await fetch("/api/files/a/b/c.txt", { method: "PUT" })).json();
  assert.deepEqual(rest, { path: "a/b/c.txt", method: "PUT" });
});

Deno.test("middleware runs outermost first and can post-process the response", async () => {
  const { fetch } = makeApp();
  const res = await fetch("/api/items/7");
  assert.deepEqual((await res.json()).trail, ["root", "api"]);
  assert.equal(res.headers.get("x-trail"), "root>api");
  const page = await fetch("/");
  assert.equal(page.headers.get("x-trail"), "root");
  await page.body?.cancel();
});

Deno.test("unknown paths are 404: JSON for API paths, the 404 page for browsers", async () => {
  const { fetch } = makeApp();
  const api = await fetch("/api/nothing", { headers: { accept: "text/html" } });
  assert.equal(api.status, 404);
  assert.deepEqual(await api.json(), { error: "Not found" });
  const page = await fetch("/nowhere", { headers: { accept: "text/html" } });
  assert.equal(page.status, 404);
  assert.match(await page.text(), /<p id="missing">missing \/nowhere<\/p>/);
  const plain = await fetch("/nowhere");
  assert.deepEqual(await plain.json(), { error: "Not found" });
});

Deno.test("a method the route lacks is 405 with Allow; HEAD falls back to GET", async () => {
  const { fetch } = makeApp();
  const res = await fetch("/api/items/1", { method: "PATCH" });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get("allow"), "GET, DELETE, HEAD");
  assert.deepEqual(await res.json(), { error: "Method not allowed" });
  const head = await fetch("/api/items/1", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  assert.equal((await fetch("/api/items/1", { method: "DELETE" })).status, 204);
  const pagePost = await fetch("/", { method: "POST" });
  assert.equal(pagePost.status, 405);
  await pagePost.body?.cancel();
  for (const method of ["constructor", "toString", "hasOwnProperty", "valueOf"]) {
    const inherited = await fetch("/api/items/1", { method });
    assert.equal(inherited.status, 405, method);
    await inherited.body?.cancel();
  }
});

Deno.test("a method the route lacks is refused before its folders' middleware runs", async () => {
  const { fetch } = makeApp();
  const refused = await fetch("/guarded/thing", { method: "PUT" });
  assert.equal(refused.status, 405, "the guard's 401 is not reached");
  assert.equal(refused.headers.get("allow"), "GET, HEAD");
  assert.deepEqual(await refused.json(), { error: "Method not allowed" });
  const guarded = await fetch("/guarded/thing");
  assert.equal(guarded.status, 401);
  await guarded.body?.cancel();
});

Deno.test("a method named like an object property is 405 on a route, 404 elsewhere, never a crash", async () => {
  const { fetch } = makeApp();
  for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty", "PROPFIND"]) {
    const known = await fetch("/api/items/1", { method });
    assert.equal(known.status, 405, method);
    assert.deepEqual(await known.json(), { error: "Method not allowed" });
    const unknown = await fetch("/api/nothing", { method });
    assert.equal(unknown.status, 404, method);
    assert.deepEqual(await unknown.json(), { error: "Not found" });
  }
});

Deno.test("HttpError becomes its status: JSON on API routes, the error page on pages", async () => {
  const { fetch } = makeApp();
  const api = await fetch("/api/fail");
  assert.equal(api.status, 418);
  assert.deepEqual(await api.json(), { error: "Short and stout" });
  const page = await fetch("/pages/fail");
  assert.equal(page.status, 403);
  assert.match(await page.text(), /<p id="error">403 Not yours<\/p>/);
});

Deno.test("an understood error shows its answer on the error page, not a 500", async () => {
  const { fetch, errors } = makeApp();
  const page = await fetch("/pages/busy", { headers: { accept: "text/html" } });
  assert.equal(page.status, 503);
  assert.match(await page.text(), /<p id="error">503 Busy for a moment<\/p>/);
  assert.equal(errors.length, 1, "still reported, for the application to log");
});

Deno.test("a page route's error answers JSON to a client that asks for JSON only", async () => {
  const { fetch } = makeApp();
  const json = await fetch("/pages/fail", { headers: { accept: "application/json" } });
  assert.equal(json.status, 403);
  assert.deepEqual(await json.json(), { error: "Not yours" });
  for (const accept of ["text/html,application/json", "*/*"]) {
    const page = await fetch("/pages/fail", { headers: { accept } });
    assert.match(await page.text(), /<p id="error">403 Not yours<\/p>/, accept);
  }
});

Deno.test("a handler-only route answers a browser with the error page, others with JSON", async () => {
  const { fetch } = makeApp();
  const browser = await fetch("/plain/fail", { headers: { accept: "text/html,*/*" } });
  assert.equal(browser.status, 503);
  assert.match(await browser.text(), /<p id="error">503 Sign-in is not configured<\/p>/);
  const client = await fetch("/plain/fail", { headers: { accept: "application/json" } });
  assert.equal(client.status, 503);
  assert.deepEqual(await client.json(), { error: "Sign-in is not configured" });
});

Deno.test("an unexpected exception is reported and answered 500 without internals", async () => {
  const { fetch, errors } = makeApp();
  const api = await fetch("/api/fail", { method: "POST" });
  assert.equal(api.status, 500);
  const body = await api.text();
  assert.equal(body, JSON.stringify({ error: "Internal server error" }));
  const page = await fetch("/pages/crash");
  assert.equal(page.status, 500);
  const html = await page.text();
  assert.ok(!html.includes("secret internals"));
  assert.match(html, /500 Internal server error/);
  assert.equal(errors.length, 2);
  assert.equal((errors[0] as Error).message, "database password is hunter2");
});

Deno.test("pages render inside _app with island roots, props and hydration scripts", async () => {
  const { fetch } = makeApp();
  const res = await fetch("/pages/demo?label=clicks");
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await res.text();
  assert.ok(html.startsWith("<!DOCTYPE html><html>"));
  assert.match(html, /<h1>demo<\/h1>/);
  assert.match(
    html,
    /<sy-island data-island="Counter" data-id="0" style="display:contents"><button id="counter">clicks 3<\/button><\/sy-island>/,
  );
  assert.ok(
    html.includes(
      '<script type="application/json" id="__ISLANDS">' +
        '{"modules":{"Counter":"/_fresh/Counter-abc.js"},"props":[{"start":3,"label":"clicks"}]}' +
        '</script><link rel="modulepreload" href="/_fresh/Counter-abc.js">' +
        '<script type="module" src="/_fresh/client-abc.js"></script></body>',
    ),
  );
  assert.ok(!/<script(?![^>]*(type="application\/json"|src=))/.test(html), "no inline script");
  assert.match(html, /<link rel="stylesheet" href="\/_fresh\/styles-abc.css"><\/head>/);
  assert.ok(html.indexOf("<script") > html.indexOf("</sy-island>"));
});

Deno.test("a prop containing </script> cannot break out of the props element", async () => {
  const { fetch } = makeApp();
  const hostile = "</script><script>alert(1)</script>";
  const html = await (await fetch(`/pages/x?label=${encodeURIComponent(hostile)}`)).text();
  const start = html.indexOf('id="__ISLANDS">') + 'id="__ISLANDS">'.length;
  const json = html.slice(start, html.indexOf("</script>", start));
  assert.deepEqual(JSON.parse(json).props, [{ start: 3, label: hostile }]);
  assert.equal(scriptSafeJson(["<&>\u2028"]), '["\\u003c\\u0026\\u003e\\u2028"]');
});

Deno.test("an island inside another island is hydrated only as part of the outer one", async () => {
  const { fetch } = makeApp();
  const html = await (await fetch("/pages/nested")).text();
  assert.equal(html.match(/<sy-island/g)?.length, 1);
  assert.match(html, /data-island="Outer"/);
  assert.match(html, /"props":\[\{"inner":7\}\]/);
  assert.ok(!html.includes("Counter-abc.js"));
});

Deno.test("a page without islands ships no scripts", async () => {
  const { fetch } = makeApp();
  const html = await (await fetch("/")).text();
  assert.ok(!html.includes("<script"));
});

Deno.test("two apps in one process each mark only their own islands", async () => {
  const assets = { client: "/_fresh/client.js", islands: {}, styles: {} };
  const appWith = (islands: Record<string, unknown>) => {
    const app = createFreshApp<TestState>({
      manifest: {
        routes: { "index.tsx": { default: () => h(Counter, { start: 1, label: "n" }) } },
        islands,
      } as unknown as Manifest,
      assets: {
        ...assets,
        islands: Object.fromEntries(Object.keys(islands).map((n) => [n, `/${n}.js`])),
      },
      root: "/nonexistent",
      createState: () => ({ trail: [] }),
      isApiPath: () => false,
      onUnexpectedError: () => {},
    });
    return async () => await (await app.fetch(new Request("http://localhost/"))).text();
  };
  const first = appWith({ Counter: { default: Counter } });
  const second = appWith({});
  const third = appWith({ Renamed: { default: Counter } });
  const firstHtml = await first();
  assert.match(firstHtml, /<sy-island data-island="Counter" data-id="0"/);
  assert.ok(!firstHtml.includes("Renamed"));
  const secondHtml = await second();
  assert.ok(!secondHtml.includes("<sy-island"), "an app without islands marks none");
  assert.ok(!secondHtml.includes("<script"));
  assert.match(await third(), /<sy-island data-island="Renamed" data-id="0"/);
});
