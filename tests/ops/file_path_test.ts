import assert from "node:assert/strict";
import { folderOf } from "../../lib/file_path.ts";

Deno.test("folderOf: the folder of a file path", () => {
  assert.equal(folderOf("data/switchyard.kv"), "data");
  assert.equal(folderOf("/var/lib/switchyard/data.kv"), "/var/lib/switchyard");
  assert.equal(folderOf("switchyard.kv"), ".");
  assert.equal(folderOf("/data.kv"), "/");
  assert.equal(folderOf("C:\\data\\switchyard.kv"), "C:\\data");
});
