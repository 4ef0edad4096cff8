/**
 * ULIDs: 26 characters of Crockford's base 32, the first 10 the time in Unix milliseconds
 * (48 bits), the last 16 random (80 bits), so ids sort by the time they were made. Random
 * bits come from Web Crypto's `getRandomValues`.
 */

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const TIME_LENGTH = 10;
const RANDOM_LENGTH = 16;
/** The largest time a ULID holds (2^48 - 1 ms). */
export const ULID_TIME_MAX = 2 ** 48 - 1;

const VALUE_OF = new Map([...ALPHABET].map((char, index) => [char, index]));

/** The 10-character time part for `time` (an integer from 0 to {@link ULID_TIME_MAX}). */
export function encodeUlidTime(time: number): string {
  if (!Number.isInteger(time) || time < 0 || time > ULID_TIME_MAX) {
    throw new RangeError(`A ULID time is an integer from 0 to 2^48 - 1, not ${time}`);
  }
  let text = "";
  for (let rest = time, left = TIME_LENGTH; left > 0; left--) {
    const digit = rest % 32;
    text = ALPHABET[digit] + text;
    rest = (rest - digit) / 32;
  }
  return text;
}

/** The time (Unix milliseconds) in a ULID; throws on anything that is not a ULID. */
export function decodeUlidTime(id: string): number {
  if (id.length !== TIME_LENGTH + RANDOM_LENGTH) throw new RangeError(`Not a ULID: ${id}`);
  let time = 0;
  for (const char of id.slice(0, TIME_LENGTH).toUpperCase()) {
    const value = VALUE_OF.get(char);
    if (value === undefined) throw new RangeError(`Not a ULID: ${id}`);
    time = time * 32 + value;
  }
  if (time > ULID_TIME_MAX) throw new RangeError(`Not a ULID: ${id}`);
  return time;
}

function randomPart(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_LENGTH));
  let text = "";
  // 256 is a multiple of 32, so each character is uniform.
  for (const byte of bytes) text += ALPHABET[byte & 31];
  return text;
}

/** The random part plus one, in base 32; throws when every character is already the last. */
function increment(random: string): string {
  for (let index = random.length - 1; index >= 0; index--) {
    const value = VALUE_OF.get(random[index])!;
    if (value < 31) {
      return random.slice(0, index) + ALPHABET[value + 1] + "0".repeat(random.length - index - 1);
    }
  }
  throw new RangeError("ULID random part overflow");
}

/** A fresh ULID for `time` (default now). */
export function ulid(time = Date.now()): string {
  return encodeUlidTime(time) + randomPart();
}

/**
 * A generator of strictly increasing ULIDs: an id asked for in the same millisecond as the
 * previous one, or in an earlier one (the clock went back), keeps the previous time and
 * takes the previous random part plus one.
 */
export function monotonicUlids(): (time?: number) => string {
  let lastTime = -1;
  let lastRandom = "";
  return (time = Date.now()) => {
    if (time <= lastTime) {
      lastRandom = increment(lastRandom);
      return encodeUlidTime(lastTime) + lastRandom;
    }
    lastTime = time;
    lastRandom = randomPart();
    return encodeUlidTime(time) + lastRandom;
  };
}
