/** Settings of the operations features: METRICS_TOKEN and KV_PATH as a KV Connect URL. */
import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../lib/config.ts";
import { isRemoteStore } from "../../lib/store/kv.ts";

Deno.test("METRICS_TOKEN is off by default and kept when set", () => {
  assert.equal(loadConfig({}).metricsToken, undefined);
  const token = "a-long-enough-metrics-token";
  assert.equal(loadConfig({ METRICS_TOKEN: token }).metricsToken, token);
});

Deno.test("a short METRICS_TOKEN stops start-up naming the setting", () => {
  assert.throws(() => loadConfig({ METRICS_TOKEN: "short" }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.setting, "METRICS_TOKEN");
    return true;
  });
});

Deno.test("KV_PATH accepts a KV Connect URL", () => {
  const url = "https://api.deno.com/databases/0123abcd/connect";
  assert.equal(loadConfig({ KV_PATH: url }).kvPath, url);
  assert.equal(loadConfig({ KV_PATH: "http://localhost:4512" }).kvPath, "http://localhost:4512");
  assert.ok(isRemoteStore(url));
  assert.ok(!isRemoteStore("./data/switchyard.kv"));
  assert.ok(!isRemoteStore(":memory:"));
  assert.ok(!isRemoteStore(undefined));
});

Deno.test("KV_PATH refuses a plain http URL to another machine and other schemes", () => {
  for (const value of ["http://kv.example.com/connect", "ftp://kv.example.com", "https://"]) {
    assert.throws(() => loadConfig({ KV_PATH: value }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.setting, "KV_PATH");
      return true;
    }, value);
  }
});
