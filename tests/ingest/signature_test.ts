import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { utf8 } from "../../lib/encoding.ts";
import {
  hmacHex,
  matchesAnySecret,
  parseHexDigest,
  parsePrefixedDigest,
} from "../../lib/signature/hmac.ts";
import {
  isWithinReplayWindow,
  parseUnixSeconds,
  REPLAY_WINDOW_SECONDS,
} from "../../lib/signature/replay.ts";
import {
  standardWebhookKey,
  verifyStandardWebhook,
} from "../../lib/signature/standard_webhooks.ts";
import { signStandardWebhook } from "../../testing/standard_webhooks_sender.ts";
import { signGithubBody } from "../../lib/providers/github.ts";
import { signGiteaBody } from "../../lib/providers/gitea.ts";
import { signCustomBody } from "../../lib/providers/custom.ts";

Deno.test("HMAC matches GitHub's published test vector", async () => {
  const signature = await signGithubBody("It's a Secret to Everybody", utf8("Hello, World!"));
  assert.equal(
    signature,
    "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
  );
});

Deno.test("every signer agrees with node:crypto", async () => {
  const body = utf8('{"zen":"Keep it logically awesome."}');
  const expected = createHmac("sha256", "s3cret").update(body).digest("hex");
  assert.equal(await hmacHex("s3cret", body), expected);
  assert.equal(await signGithubBody("s3cret", body), `sha256=${expected}`);
  assert.equal(await signGiteaBody("s3cret", body), expected);
  assert.equal(await signCustomBody("s3cret", body), `sha256=${expected}`);
  const replay = createHmac("sha256", "s3cret")
    .update(`1700000000.n-1.${new TextDecoder().decode(body)}`)
    .digest("hex");
  assert.equal(
    await signCustomBody("s3cret", body, { timestamp: 1700000000, nonce: "n-1" }),
    `sha256=${replay}`,
  );
});

Deno.test("matchesAnySecret accepts any configured secret and nothing else", async () => {
  const body = utf8("payload");
  const digest = parseHexDigest(await hmacHex("old", body))!;
  assert.equal(await matchesAnySecret(["new", "old"], body, [digest]), true);
  assert.equal(await matchesAnySecret(["new"], body, [digest]), false);
  assert.equal(await matchesAnySecret([], body, [digest]), false);
  assert.equal(await matchesAnySecret(["old"], body, []), false);
  assert.equal(await matchesAnySecret(["old"], utf8("payload!"), [digest]), false);
  assert.equal(await matchesAnySecret(["old"], body, [digest.subarray(0, 31)]), false);
});

Deno.test("signature headers parse only well-formed SHA-256 digests", () => {
  const hex = "ab".repeat(32);
  assert.equal(parsePrefixedDigest(`sha256=${hex}`)?.length, 32);
  assert.equal(parsePrefixedDigest(`SHA256=${hex.toUpperCase()}`)?.length, 32);
  assert.equal(parsePrefixedDigest(hex), null);
  assert.equal(parsePrefixedDigest(`sha1=${hex}`), null);
  assert.equal(parsePrefixedDigest("sha256="), null);
  assert.equal(parsePrefixedDigest(`sha256=${hex}00`), null);
  assert.equal(parsePrefixedDigest(null), null);
  assert.equal(parseHexDigest(hex)?.length, 32);
  assert.equal(parseHexDigest(""), null);
  assert.equal(parseHexDigest(`sha256=${hex}`), null);
  assert.equal(parseHexDigest("zz".repeat(32)), null);
});

Deno.test("the replay window is ±300 s, edges included", () => {
  const now = 1_700_000_000_000;
  const t = now / 1000;
  assert.equal(REPLAY_WINDOW_SECONDS, 300);
  assert.equal(isWithinReplayWindow(t, now), true);
  assert.equal(isWithinReplayWindow(t - 300, now), true);
  assert.equal(isWithinReplayWindow(t + 300, now), true);
  assert.equal(isWithinReplayWindow(t - 301, now), false);
  assert.equal(isWithinReplayWindow(t + 301, now), false);
  assert.equal(parseUnixSeconds("1700000000"), 1700000000);
  assert.equal(parseUnixSeconds("17e8"), null);
  assert.equal(parseUnixSeconds("-5"), null);
  assert.equal(parseUnixSeconds(""), null);
  assert.equal(parseUnixSeconds(null), null);
});

const SW_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const SW_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const SW_TIMESTAMP = 1614265330;
const SW_BODY = utf8('{"test": 2432232314}');
const SW_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

Deno.test("Standard Webhooks: the specification's known-answer vector", async () => {
  assert.equal(await signStandardWebhook(SW_SECRET, SW_ID, SW_TIMESTAMP, SW_BODY), SW_SIGNATURE);
  const independent = createHmac(
    "sha256",
    Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64"),
  )
    .update(`${SW_ID}.${SW_TIMESTAMP}.{"test": 2432232314}`)
    .digest("base64");
  assert.equal(SW_SIGNATURE, `v1,${independent}`);
});

Deno.test("Standard Webhooks: secrets with and without the whsec_ prefix", async () => {
  assert.deepEqual(
    standardWebhookKey("whsec_AAEC"),
    new Uint8Array([0, 1, 2]),
  );
  assert.equal(standardWebhookKey("plain"), "plain");
  assert.equal(standardWebhookKey("whsec_"), null);
  assert.equal(standardWebhookKey("whsec_!!!"), null);
  const plain = createHmac("sha256", "plain").update(`${SW_ID}.${SW_TIMESTAMP}.`).update(SW_BODY)
    .digest("base64");
  assert.equal(await signStandardWebhook("plain", SW_ID, SW_TIMESTAMP, SW_BODY), `v1,${plain}`);
});

Deno.test("Standard Webhooks: verification rules", async () => {
  const now = SW_TIMESTAMP * 1000;
  const headers = { id: SW_ID, timestamp: String(SW_TIMESTAMP), signature: SW_SIGNATURE };
  const verify = (h: Partial<typeof headers>, at = now, secrets = [SW_SECRET]) =>
    verifyStandardWebhook(secrets, { ...headers, ...h }, SW_BODY, at);

  assert.equal(await verify({}), null);
  assert.equal(await verify({}, now, ["whsec_b3RoZXI=", SW_SECRET]), null, "rotation");
  assert.equal(await verify({}, now + 300_000), null);
  assert.equal(await verify({}, now - 300_000), null);
  assert.equal(await verify({}, now + 301_000), "timestamp outside the replay window");
  assert.equal(await verify({}, now - 301_000), "timestamp outside the replay window");
  assert.equal(await verify({ id: "" }), "missing headers");
  assert.equal(await verify({ signature: "" }), "missing headers");
  assert.equal(await verify({ timestamp: "" }), "missing headers");
  assert.equal(await verify({ timestamp: "1614265330.5" }), "malformed timestamp");
  assert.equal(await verify({ id: "msg_other" }), "no matching signature");
  assert.equal(await verify({}, now, ["whsec_b3RoZXI="]), "no matching signature");
  assert.equal(await verify({}, now, []), "no matching signature");
  assert.equal(
    await verify({ signature: SW_SIGNATURE.slice(0, -8) }),
    "no matching signature",
    "truncated",
  );
  assert.equal(
    await verify({ signature: `v1,Zm9v v2,${SW_SIGNATURE.slice(3)} ${SW_SIGNATURE}` }),
    null,
    "a list mixing a wrong v1, an unknown version and the right one",
  );
  assert.equal(
    await verify({ signature: `v2,${SW_SIGNATURE.slice(3)}` }),
    "no matching signature",
    "only v1 counts",
  );
});

Deno.test("digests under secrets used in turn stay each secret's own", async () => {
  const body = utf8('{"action":"opened"}');
  const digestOf = (secret: string) => createHmac("sha256", secret).update(body).digest("hex");
  for (const secret of ["first", "second", "first", "whsec_x", "second"]) {
    assert.equal(await hmacHex(secret, body), digestOf(secret));
  }
  assert.equal(await hmacHex(utf8("first"), body), digestOf("first"));
});
