/**
 * Walking a chat link as a browser does, over HTTP: the link page (its binding cookie and form),
 * the POST that continues to GitHub, the callback, and the POST that confirms the pair.
 */
import assert from "node:assert/strict";
import type { TestApp } from "./_helpers.ts";
import { bindingCookieOf } from "./fake_github.ts";

/** A form field's value in a page, or throws. */
export function fieldOf(html: string, name: string): string {
  const value = html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];
  if (value === undefined) throw new Error(`no ${name} field in the page`);
  return value.replaceAll("&amp;", "&");
}

/** Posts a link form from the page's own origin. */
export async function postLinkForm(
  t: TestApp,
  path: string,
  cookie: string,
  fields: Record<string, string>,
  origin = new URL(t.config.baseUrl).origin,
): Promise<Response> {
  return await t.fetch(path, {
    method: "POST",
    headers: {
      accept: "text/html",
      cookie,
      origin,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/**
 * Opens the link page at `pageUrl` and continues to GitHub as its browser: the OAuth state
 * GitHub is sent, the browser's binding cookie and the link page's HTML.
 */
export async function continueLink(
  t: TestApp,
  pageUrl: string,
): Promise<{ state: string; cookie: string; html: string }> {
  const url = new URL(pageUrl);
  const page = await t.fetch(`${url.pathname}${url.search}`, { headers: { accept: "text/html" } });
  assert.equal(page.status, 200);
  const cookie = bindingCookieOf(page);
  assert.ok(cookie, "the link page sets the browser binding cookie");
  const html = await page.text();
  const next = await postLinkForm(t, url.pathname, cookie, {
    token: fieldOf(html, "token"),
    csrf_token: fieldOf(html, "csrf_token"),
    intent: "continue",
  });
  assert.equal(next.status, 200);
  const onward = await next.text();
  const href = onward.match(/href="([^"]*\/login\/oauth\/authorize[^"]*)"/)?.[1];
  assert.ok(href, "the page leads on to GitHub's authorize address");
  const authorize = new URL(href.replaceAll("&amp;", "&"));
  assert.equal(authorize.pathname, "/login/oauth/authorize");
  return { state: authorize.searchParams.get("state")!, cookie, html };
}

/** GitHub's callback for `state` with `code`, as a browser page or a JSON client. */
export async function linkCallback(
  t: TestApp,
  state: string,
  code: string,
  headers: Record<string, string>,
): Promise<Response> {
  return await t.fetch(`/auth/github/callback?${new URLSearchParams({ code, state })}`, {
    headers,
  });
}

/** The whole path in a browser: page, GitHub, the pair page, and its confirmation's answer. */
export async function completeLinkInBrowser(
  t: TestApp,
  pageUrl: string,
  code: string,
): Promise<Response> {
  const { state, cookie } = await continueLink(t, pageUrl);
  const pair = await linkCallback(t, state, code, { accept: "text/html", cookie });
  assert.equal(pair.status, 200);
  const html = await pair.text();
  return await postLinkForm(t, new URL(pageUrl).pathname, cookie, {
    token: fieldOf(html, "token"),
    csrf_token: fieldOf(html, "csrf_token"),
    intent: "confirm",
  });
}

/** The whole path as a JSON client holding the browser's cookie: the callback's answer. */
export async function completeLinkAsClient(
  t: TestApp,
  pageUrl: string,
  code: string,
): Promise<Response> {
  const { state, cookie } = await continueLink(t, pageUrl);
  return await linkCallback(t, state, code, { accept: "application/json", cookie });
}
