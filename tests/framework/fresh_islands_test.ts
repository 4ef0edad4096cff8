/** The one island lister and naming rule, shared by the manifest and the build. */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { islandName, listIslands } from "../../lib/fresh/islands.ts";
import { manifestSource } from "../../lib/fresh/manifest.ts";

/** A temporary project with the given files (contents do not matter to the lister). */
async function projectWith(files: string[]): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "islands-" });
  for (const file of files) {
    await Deno.mkdir(dirname(join(root, file)), { recursive: true });
    await Deno.writeTextFile(join(root, file), "export default () => null;\n");
  }
  return root;
}

Deno.test("islandName() is the path below islands/ without extension, / as _", () => {
  assert.equal(islandName("PathTester.tsx"), "PathTester");
  assert.equal(islandName("console/Foo.tsx"), "console_Foo");
  assert.equal(islandName("a/b/C.jsx"), "a_b_C");
});

Deno.test("listIslands() walks nested folders and skips tests", async () => {
  const root = await projectWith([
    "islands/Top.tsx",
    "islands/console/Foo.tsx",
    "islands/console/deep/Bar.ts",
    "islands/console/Foo_test.tsx",
    "islands/notes.md",
  ]);
  try {
    assert.deepEqual(await listIslands(root), [
      { path: "Top.tsx", name: "Top" },
      { path: "console/Foo.tsx", name: "console_Foo" },
      { path: "console/deep/Bar.ts", name: "console_deep_Bar" },
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("listIslands() refuses two files that would share a name", async () => {
  for (const pair of [["a/b.tsx", "a_b.tsx"], ["B.ts", "B.tsx"]]) {
    const root = await projectWith(pair.map((file) => `islands/${file}`));
    try {
      await assert.rejects(listIslands(root), /would both be island/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
});

Deno.test("the manifest imports nested islands and keys them by island name", async () => {
  const root = await projectWith([
    "islands/Foo.tsx",
    "islands/console/Foo.tsx",
    "routes/index.tsx",
  ]);
  try {
    const source = await manifestSource(root);
    assert.match(source, /import \* as \$i0 from "\.\/islands\/Foo\.tsx";/);
    assert.match(source, /import \* as \$i1 from "\.\/islands\/console\/Foo\.tsx";/);
    assert.match(source, /"Foo": \$i0,\n {4}"console_Foo": \$i1,/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
