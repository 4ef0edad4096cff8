/**
 * The Fresh 2 conventions of the layer: `page(data)` and
 * `define.page<typeof handler>`, `ctx.redirect()`, `_error` receiving the
 * error, middleware as default export, `handler` or array, typed `HttpError`
 * statuses, and the security headers on every answer.
 */
import assert from "node:assert/strict";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { createFreshApp } from "../../lib/fresh/app.ts";
import {
  createDefine,
  HttpError,
  isErrorStatus,
  page,
  type PageProps,
  type RouteData,
} from "../../lib/fresh/mod.ts";
import { sameSiteLocation } from "../../lib/fresh/redirect.ts";
import { PAGE_CSP } from "../../lib/fresh/security_headers.ts";
import type { Manifest } from "../../lib/fresh/types.ts";
import ErrorPage from "../../routes/_error.tsx";

interface TestState {
  trail: string[];
}

const define = createDefine<TestState>();

// A route as a Fresh 2 project writes it: the page's data type comes from the handler.
const greetingHandler = define.handlers({
  GET(ctx) {
    const name = ctx.url.searchParams.get("name") ?? "world";
    return page({ name, length: name.length }, { status: 201, headers: { "x-page": "yes" } });
  },
  POST: (ctx) => ctx.redirect("/greeting?name=posted", 303),
});
const GreetingPage = define.page<typeof greetingHandler>(({ data }) => {
  const name: string = data.name;
  const length: number = data.length;
  // @ts-expect-error: the handler passes no `missing` field
  data.missing;
  return h("p", { id: "greeting" }, `hello ${name} (${length})`);
});

// Type-level checks: the inferred data type, and HttpError taking error statuses only.
const inferred: RouteData<typeof greetingHandler> = { name: "a", length: 1 };
// @ts-expect-error: 200 is not an error status
const notAnError = () => new HttpError(200, "fine");
// @ts-expect-error: a redirect is returned with ctx.redirect(), never thrown
const thrownRedirect = () => new HttpError(302, "moved", { headers: { location: "/" } });
// @ts-expect-error: the third argument is options (Fresh 2's ErrorOptions); headers go in `headers`
const headersAsThird = () => new HttpError(401, "Sign in", { "www-authenticate": "Bearer" });
// @ts-expect-error: the page's data type comes from `typeof handler`, not a type of its own
const namedData = () => define.page<{ name: string }>(() => null);
// @ts-expect-error: Fresh 1's ctx.render(data) is gone: handlers return page(data)
const fresh1Render = define.handlers({ GET: (ctx) => ctx.render({ name: "legacy" }) });

const seen: unknown[] = [];
const slowCause = new Error("the limiter said no");
const routes: Record<string, unknown> = {
  "_error.tsx": {
    default: define.page(({ error }) => {
      seen.push(error);
      const status = error instanceof HttpError ? error.status : 500;
      return h("p", { id: "error" }, `status ${status}`);
    }),
  },
  "greeting.tsx": { handler: greetingHandler, default: GreetingPage },
  "nopage.ts": { handler: define.handlers({ GET: () => page({ lost: true }) }) },
  "go.ts": {
    handler: define.handlers((ctx) => ctx.redirect(ctx.url.searchParams.get("to") ?? "/")),
  },
  "broken.tsx": {
    default: () => h("p", null, "never"),
    handler: () => {
      throw new Error("secret internals");
    },
  },
  "gone.tsx": {
    default: () => h("p", null, "never"),
    handler: () => {
      throw new HttpError(410, "Gone for good");
    },
  },
  "api/data.ts": { handler: () => Response.json({ ok: true }) },
  "api/slow.ts": {
    handler: () => {
      throw new HttpError(429, "Slow down", {
        headers: { "retry-after": "3" },
        cause: slowCause,
      });
    },
  },
  "api/bare.ts": {
    handler: () => {
      throw new HttpError(404);
    },
  },
  // Middleware in each form Fresh 2 reads: `handler`, default export, arrays.
  "_middleware.ts": {
    handler: define.middleware((ctx) => {
      ctx.state.trail.push("root");
      return ctx.next();
    }),
  },
  "mw/_middleware.ts": {
    default: define.middleware([
      (ctx) => {
        ctx.state.trail.push("a");
        return ctx.next();
      },
      async (ctx) => {
        ctx.state.trail.push("b");
        const res = await ctx.next();
        res.headers.set("x-trail", ctx.state.trail.join(">"));
        return res;
      },
    ]),
  },
  "mw/inner/_middleware.ts": {
    handler: [(ctx: { state: TestState; next(): Promise<Response> }) => {
      ctx.state.trail.push("c");
      return ctx.next();
    }],
  },
  "mw/inner/index.ts": { handler: () => new Response("inner") },
  "mw/stop/_middleware.ts": { default: () => new Response("stopped", { status: 403 }) },
  "mw/stop/index.ts": { handler: () => new Response("never") },
};

function makeApp(extra: Record<string, unknown> = {}, reported: unknown[] = []) {
  const manifest = { routes: { ...routes, ...extra }, islands: {} } as unknown as Manifest;
  const app = createFreshApp<TestState>({
    manifest,
    assets: { client: null, islands: {}, styles: {} },
    root: "/nonexistent",
    createState: () => ({ trail: [] }),
    isApiPath: (path) => path.startsWith("/api/"),
    onUnexpectedError: (error) => reported.push(error),
  });
  return (path: string, init?: RequestInit) =>
    Promise.resolve(app.fetch(new Request(`http://localhost${path}`, init)));
}

Deno.test("a handler returns page(data, init): the page renders with its data, status and headers", async () => {
  assert.deepEqual(inferred, { name: "a", length: 1 });
  assert.equal(typeof notAnError, "function");
  assert.equal(typeof thrownRedirect, "function");
  assert.equal(typeof namedData, "function");
  assert.equal(typeof fresh1Render, "object");
  const fetch = makeApp();
  const res = await fetch("/greeting?name=ada");
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("x-page"), "yes");
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  assert.match(await res.text(), /<p id="greeting">hello ada \(3\)<\/p>/);
  const head = await fetch("/greeting?name=ada", { method: "HEAD" });
  assert.equal(head.status, 201);
  assert.equal(await head.text(), "");
});

Deno.test("page(data) from a route without a page component is a 500, not a crash", async () => {
  const res = await makeApp()("/nopage");
  assert.equal(res.status, 500);
  assert.deepEqual(await res.json(), { error: "Internal server error" });
});

Deno.test("ctx.redirect() answers a redirect on this site with the given status", async () => {
  const fetch = makeApp();
  const posted = await fetch("/greeting", { method: "POST" });
  assert.equal(posted.status, 303);
  assert.equal(posted.headers.get("location"), "/greeting?name=posted");
  const cases: [string, string][] = [
    ["/admin?tab=1#top", "/admin?tab=1#top"],
    ["http://localhost/admin", "/admin"],
    ["/.//evil.example", "/evil.example"],
    ["/a//b///c", "/a/b/c"],
  ];
  for (const [to, location] of cases) {
    const res = await fetch(`/go?to=${encodeURIComponent(to)}`);
    assert.equal(res.status, 302, to);
    assert.equal(res.headers.get("location"), location, to);
  }
});

Deno.test("ctx.redirect() to another site throws: reported, answered 500, never a redirect", async () => {
  const reported: unknown[] = [];
  const fetch = makeApp({}, reported);
  const offSite = [
    "https://evil.example/x",
    "//evil.example/x",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "http://localhost:8001/",
    "javascript:alert(1)",
    "http://[not a host",
  ];
  for (const to of offSite) {
    const res = await fetch(`/go?to=${encodeURIComponent(to)}`);
    assert.equal(res.status, 500, to);
    assert.equal(res.headers.get("location"), null, to);
    assert.deepEqual(await res.json(), { error: "Internal server error" }, to);
  }
  assert.equal(reported.length, offSite.length);
  for (const error of reported) {
    assert.match((error as Error).message, /^ctx\.redirect\(\) stays on this site: /);
  }
});

Deno.test("sameSiteLocation() resolves relative paths against the request and throws off-site", () => {
  const url = new URL("http://localhost/admin/groups?x=1");
  assert.equal(sameSiteLocation("logs", url), "/admin/logs");
  assert.equal(sameSiteLocation("?page=2", url), "/admin/groups?page=2");
  assert.throws(() => sameSiteLocation("http://localhost:8001/", url), /http:\/\/localhost:8001/);
});

Deno.test("_error receives the error: the HttpError with its status, or the exception", async () => {
  seen.length = 0;
  const fetch = makeApp();
  const gone = await fetch("/gone");
  assert.equal(gone.status, 410);
  assert.match(await gone.text(), /<p id="error">status 410<\/p>/);
  const broken = await fetch("/broken");
  assert.equal(broken.status, 500);
  assert.match(await broken.text(), /<p id="error">status 500<\/p>/);
  const missing = await fetch("/nowhere", { headers: { accept: "text/html" } });
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /<p id="error">status 404<\/p>/);
  assert.equal(seen.length, 3);
  assert.ok(seen[0] instanceof HttpError);
  assert.equal((seen[0] as HttpError).message, "Gone for good");
  assert.equal((seen[1] as Error).message, "secret internals");
  assert.equal((seen[2] as HttpError).status, 404);
});

Deno.test("routes/_error.tsx shows an HttpError's status and message, never an exception's", () => {
  const props = {
    data: undefined,
    url: new URL("http://localhost/x"),
    req: new Request("http://localhost/x"),
    params: {},
    state: {},
    Component: () => null,
  } as unknown as PageProps<undefined, never>;
  const refused = renderToString(
    h(ErrorPage, { ...props, error: new HttpError(403, "Not yours") }),
  );
  assert.match(refused, />403<\/p>/);
  assert.match(refused, />Not yours<\/h1>/);
  const crashed = renderToString(h(ErrorPage, { ...props, error: new Error("db password") }));
  assert.match(crashed, />500<\/p>/);
  assert.match(crashed, />Internal server error<\/h1>/);
  assert.ok(!crashed.includes("db password"));
});

Deno.test("middleware may be a handler or default export, one function or an array", async () => {
  const fetch = makeApp();
  const inner = await fetch("/mw/inner");
  assert.equal(await inner.text(), "inner");
  assert.equal(inner.headers.get("x-trail"), "root>a>b>c");
  const stopped = await fetch("/mw/stop");
  assert.equal(stopped.status, 403);
  assert.equal(await stopped.text(), "stopped");
});

Deno.test("a _middleware exporting a method map is refused when the app is built", () => {
  assert.throws(
    () => makeApp({ "bad/_middleware.ts": { handler: { GET: () => new Response() } } }),
    /routes\/bad\/_middleware\.ts must export a middleware function or an array of them/,
  );
});

Deno.test("HttpError(status, message?, { headers, cause }): headers answer, cause kept, message defaults to the status text", async () => {
  assert.equal(typeof headersAsThird, "function");
  const reported: unknown[] = [];
  const fetch = makeApp({}, reported);
  const slow = await fetch("/api/slow");
  assert.equal(slow.status, 429);
  assert.equal(slow.headers.get("retry-after"), "3");
  assert.equal(slow.headers.get("headers"), null);
  assert.deepEqual(await slow.json(), { error: "Slow down" });
  const bare = await fetch("/api/bare");
  assert.equal(bare.status, 404);
  assert.deepEqual(await bare.json(), { error: "Not Found" });
  assert.equal(reported.length, 0);

  const error = new HttpError(503, "Busy", { headers: { "retry-after": "1" }, cause: slowCause });
  assert.equal(error.cause, slowCause);
  assert.equal(new Headers(error.headers).get("retry-after"), "1");
  assert.equal(new HttpError(400).message, "Bad Request");
  assert.ok(!("cause" in new HttpError(400, "No cause")));
});

Deno.test("Fresh 2 route features the layer lacks are refused when the app is built", () => {
  const refused: [Record<string, unknown>, RegExp][] = [
    [{ "_layout.tsx": { default: () => null } }, /routes\/_layout\.tsx: _layout files/],
    [{ "(shop)/cart.tsx": { default: () => null } }, /routes\/\(shop\)\/cart\.tsx: route groups/],
    [{ "a.ts": { handlers: { GET: () => new Response() } } }, /routes\/a\.ts: .*`handlers`/],
    [{ "b.tsx": { default: () => null, config: {} } }, /routes\/b\.tsx: .*`config`/],
    // deno-lint-ignore require-await
    [{ "c.tsx": { default: async () => null } }, /routes\/c\.tsx: async page components/],
  ];
  for (const [extra, message] of refused) assert.throws(() => makeApp(extra), message);
});

Deno.test("isErrorStatus() accepts 4xx and 5xx statuses only", () => {
  for (const status of [400, 404, 418, 451, 500, 503, 511]) assert.ok(isErrorStatus(status));
  for (const status of [200, 302, 399, 419, 499, 512, 600]) assert.ok(!isErrorStatus(status));
});

Deno.test("HTML pages may not be framed and run only this site's scripts; every answer is nosniff", async () => {
  const fetch = makeApp();
  const pages = [
    await fetch("/greeting"),
    await fetch("/gone"),
    await fetch("/nowhere", { headers: { accept: "text/html" } }),
  ];
  for (const res of pages) {
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.equal(res.headers.get("content-security-policy"), PAGE_CSP);
    assert.equal(res.headers.get("x-frame-options"), "DENY");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
    await res.body?.cancel();
  }
  assert.match(PAGE_CSP, /(^|; )frame-ancestors 'none'(;|$)/);
  assert.match(PAGE_CSP, /(^|; )script-src 'self'(;|$)/);
  const others = [
    await fetch("/api/data"),
    await fetch("/api/nothing"),
    await fetch("/go?to=/x"),
    await fetch("/mw/stop"),
  ];
  for (const res of others) {
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
    assert.equal(res.headers.get("content-security-policy"), null);
    assert.equal(res.headers.get("x-frame-options"), null);
    await res.body?.cancel();
  }
});
