import assert from "node:assert/strict";
import { ID_FORMATS } from "../../lib/ids.ts";
import {
  decodeUlidTime,
  encodeUlidTime,
  monotonicUlids,
  ulid,
  ULID_TIME_MAX,
} from "../../lib/ulid.ts";

const AT = 1469918176385;

Deno.test("ulid: 26 characters of the event id format, time first", () => {
  const id = ulid(AT);
  assert.match(id, ID_FORMATS.event.pattern);
  assert.equal(id.slice(0, 10), "01ARYZ6S41");
  assert.equal(decodeUlidTime(id), AT);
  assert.notEqual(ulid(AT), ulid(AT));
});

Deno.test("ulid: time part encodes and decodes at both ends of its range", () => {
  assert.equal(encodeUlidTime(0), "0000000000");
  assert.equal(encodeUlidTime(ULID_TIME_MAX), "7ZZZZZZZZZ");
  assert.equal(decodeUlidTime("7ZZZZZZZZZ" + "0".repeat(16)), ULID_TIME_MAX);
  assert.equal(decodeUlidTime("01aryz6s41" + "0".repeat(16)), AT);
  for (const bad of [-1, 1.5, Number.NaN, ULID_TIME_MAX + 1]) {
    assert.throws(() => encodeUlidTime(bad), RangeError);
  }
});

Deno.test("ulid: decoding rejects what is not a ulid", () => {
  for (const bad of ["", "not-a-ulid", "01ARYZ6S4U" + "0".repeat(16), "8" + "0".repeat(25)]) {
    assert.throws(() => decodeUlidTime(bad), RangeError);
  }
});

Deno.test("ulid: ids sort by time", () => {
  assert.ok(ulid(AT) < ulid(AT + 1));
  assert.ok(ulid(31) < ulid(32));
});

Deno.test("monotonicUlids: strictly increasing within a millisecond and when the clock goes back", () => {
  const next = monotonicUlids();
  const ids = [next(AT), next(AT), next(AT), next(AT - 5), next(AT + 1)];
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual(ids.slice(0, 4).map(decodeUlidTime), [AT, AT, AT, AT]);
  assert.equal(decodeUlidTime(ids[4]), AT + 1);
});

Deno.test("monotonicUlids: the random part carries into the next character", () => {
  const next = monotonicUlids();
  const values = new Uint8Array(16).fill(31);
  values[0] = 5;
  const random = crypto.getRandomValues;
  crypto.getRandomValues = (<T extends ArrayBufferView | null>(array: T) => {
    (array as unknown as Uint8Array).set(values);
    return array;
  }) as typeof crypto.getRandomValues;
  try {
    assert.equal(next(AT).slice(10), "5" + "Z".repeat(15));
  } finally {
    crypto.getRandomValues = random;
  }
  assert.equal(next(AT).slice(10), "6" + "0".repeat(15));
});
