/**
 * Browser test of island hydration on a tiny fixture project built in a
 * temporary folder with the real manifest writer and build: an island in a
 * subfolder hydrates, next to a top-level island with the same file name,
 * under the pages' Content-Security-Policy.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../../lib/app.ts";
import { createFreshApp } from "../../lib/fresh/app.ts";
import { buildAssets } from "../../lib/fresh/build.ts";
import { writeManifest } from "../../lib/fresh/manifest.ts";
import { PAGE_CSP } from "../../lib/fresh/security_headers.ts";
import type { Manifest } from "../../lib/fresh/types.ts";
import { hasChromium, untilHydrated, withChromium } from "../_browser.ts";

const clicker = (label: string) =>
  `import { useState } from "preact/hooks";

export default function Clicker(props: { start: number }) {
  const [count, setCount] = useState(props.start);
  return <button id="${label}" onClick={() => setCount(count + 1)}>${label} {count}</button>;
}
`;

const FIXTURE: Record<string, string> = {
  "islands/Clicker.tsx": clicker("top"),
  "islands/console/Clicker.tsx": clicker("nested"),
  "routes/index.tsx": `import Top from "../islands/Clicker.tsx";
import Nested from "../islands/console/Clicker.tsx";

export default function Home() {
  return (
    <html>
      <head>
        <title>islands</title>
        <link rel="icon" href="data:," />
      </head>
      <body>
        <Top start={1} />
        <Nested start={10} />
      </body>
    </html>
  );
}
`,
  "styles.css": "button { margin: 4px; }\n",
};

/** Writes the fixture project, links the dependencies, writes its manifest and builds it. */
async function buildFixture(root: string): Promise<Manifest> {
  for (const [file, text] of Object.entries(FIXTURE)) {
    await Deno.mkdir(dirname(join(root, file)), { recursive: true });
    await Deno.writeTextFile(join(root, file), text);
  }
  await Deno.symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  await writeManifest(root);
  const manifestUrl = pathToFileURL(join(root, "fresh.gen.ts")).href;
  return (await import(manifestUrl)).default as Manifest;
}

Deno.test({
  name: "islands: an island in a subfolder hydrates, beside a same-named top-level one",
  ignore: !hasChromium,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "fresh-fixture-" });
    try {
      const manifest = await buildFixture(root);
      assert.deepEqual(Object.keys(manifest.islands), ["Clicker", "console_Clicker"]);
      const assets = await buildAssets({ root, stylesheet: "styles.css" });
      assert.deepEqual(Object.keys(assets.islands), ["Clicker", "console_Clicker"]);
      const app = createFreshApp({
        manifest,
        assets,
        root,
        createState: () => ({}),
        isApiPath: () => false,
        onUnexpectedError: (error) => {
          throw error;
        },
      });
      await withChromium(app.fetch, async (page, base) => {
        const res = await page.goto(base);
        assert.equal(res?.headers()["content-security-policy"], PAGE_CSP);
        const nested = page.locator("#nested");
        await untilHydrated(
          "the nested island counts a click",
          () => nested.click(),
          async () => (await nested.innerText()) === "nested 11",
        );
        // One runtime hydrates every island at once, so the top-level one is live too.
        await page.locator("#top").click();
        await page.locator("#top").click();
        await page.locator("#top", { hasText: "top 3" }).waitFor();
        assert.equal(await page.locator("#nested").innerText(), "nested 11");
      });
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
