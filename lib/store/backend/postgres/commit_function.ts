/**
 * `kv_commit`, the server-side half of an atomic commit (created by migration 2), so a commit
 * is one statement and one round trip. Being VOLATILE PL/pgSQL under READ COMMITTED, each of its
 * statements sees what was committed before it started, so the checks (read after the locks)
 * see every commit that wrote those keys. In order it:
 * 1. takes a transaction advisory lock per id in `lock_ids` (given sorted: no lock cycles);
 * 2. returns NULL, writing nothing, when a check fails: a key that exists (and has not expired)
 *    when its version is NULL, or whose version differs;
 * 3. draws the commit's version from `kv_versions`;
 * 4. upserts the sets (their values are slices of one `bytea`, `set_values`, at the 1-based
 *    `set_offsets` with `set_lengths`: one parameter that PostgreSQL reads as it comes, rather
 *    than a text array of hex to parse and decode), deletes the deletes, then applies the counters in order (`sum` modulo
 *    2^64, `min`, `max` on 8-byte little-endian u64 values; SQLSTATE KV001 for a stored value
 *    that is not a u64);
 * 5. sends one notification with the tags of the keys written, and returns the version.
 */
export const CREATE_COMMIT_FUNCTION = `
CREATE FUNCTION kv_commit(
  lock_ids bigint[],
  check_keys text[], check_versions bigint[],
  set_keys text[], set_kinds smallint[], set_values bytea, set_offsets integer[],
  set_lengths integer[], set_expires bigint[],
  delete_keys text[],
  counter_keys text[], counter_ops text[], counter_operands numeric[],
  channel text, notification text
) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  lock_id bigint;
  drawn bigint;
  counted record;
  before numeric;
  after numeric;
  encoded text;
BEGIN
  FOREACH lock_id IN ARRAY lock_ids LOOP
    PERFORM pg_advisory_xact_lock(lock_id);
  END LOOP;
  IF EXISTS (
    SELECT 1 FROM unnest(check_keys, check_versions) AS given(k, v)
    LEFT JOIN kv_entries AS stored ON stored.key = decode(given.k, 'hex')
      AND (stored.expires_at IS NULL OR stored.expires_at > now())
    WHERE CASE WHEN given.v IS NULL THEN stored.key IS NOT NULL
      ELSE stored.version IS DISTINCT FROM given.v END
  ) THEN
    RETURN NULL;
  END IF;
  drawn := nextval('kv_versions');
  INSERT INTO kv_entries (key, kind, value, version, expires_at)
  SELECT decode(k, 'hex'), kind, substring(set_values FROM o FOR l), drawn,
    CASE WHEN e < 0 THEN NULL ELSE now() + e * interval '1 millisecond' END
  FROM unnest(set_keys, set_kinds, set_offsets, set_lengths, set_expires)
    AS given(k, kind, o, l, e)
  ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, value = excluded.value,
    version = excluded.version, expires_at = excluded.expires_at;
  DELETE FROM kv_entries WHERE key = ANY (ARRAY(SELECT decode(unnest(delete_keys), 'hex')));
  FOR i IN 1 .. coalesce(array_length(counter_keys, 1), 0) LOOP
    SELECT kind, value INTO counted FROM kv_entries
    WHERE key = decode(counter_keys[i], 'hex')
      AND (expires_at IS NULL OR expires_at > now());
    IF NOT FOUND THEN
      after := counter_operands[i];
    ELSIF counted.kind <> 3 THEN
      RAISE EXCEPTION USING ERRCODE = 'KV001', MESSAGE = format(
        'Failed to perform ''%s'' mutation on a non-U64 value in the database', counter_ops[i]);
    ELSE
      before := 0;
      FOR b IN REVERSE 7 .. 0 LOOP
        before := before * 256 + get_byte(counted.value, b);
      END LOOP;
      after := CASE counter_ops[i]
        WHEN 'sum' THEN mod(before + counter_operands[i], 18446744073709551616)
        WHEN 'min' THEN least(before, counter_operands[i])
        ELSE greatest(before, counter_operands[i]) END;
    END IF;
    encoded := '';
    FOR b IN 0 .. 7 LOOP
      encoded := encoded || lpad(to_hex(mod(after, 256)::integer), 2, '0');
      after := div(after, 256);
    END LOOP;
    INSERT INTO kv_entries (key, kind, value, version, expires_at)
    VALUES (decode(counter_keys[i], 'hex'), 3, decode(encoded, 'hex'), drawn, NULL)
    ON CONFLICT (key) DO UPDATE SET kind = 3, value = excluded.value, version = drawn,
      expires_at = NULL;
  END LOOP;
  PERFORM pg_notify(channel, notification);
  RETURN drawn;
END
$$`;

/** Removes the `kv_commit` of migration 1, whose values came as a text array of hex. */
export const DROP_HEX_COMMIT_FUNCTION = `DROP FUNCTION IF EXISTS kv_commit(
  bigint[], text[], bigint[], text[], smallint[], text[], bigint[], text[], text[], text[],
  numeric[], text, text
)`;

/** SQLSTATE `kv_commit` raises for a counter on a value that is not a u64. */
export const NOT_U64 = "KV001";

/** The argument types of `kv_commit`, naming it in `ALTER FUNCTION`. */
const COMMIT_ARGUMENTS = `bigint[], text[], bigint[], text[], smallint[], bytea, integer[],
  integer[], bigint[], text[], text[], text[], numeric[], text, text`;

/**
 * Makes `kv_commit` plan its statements with index scans only (migration 3). Every statement in it
 * names keys, so an index scan of the primary key always serves it; but a plan a session made
 * while the table was small (a fresh database, before its first ANALYZE) would scan the whole
 * table, and the session keeps that plan as the table grows.
 */
export const COMMIT_BY_INDEX = `ALTER FUNCTION kv_commit(${COMMIT_ARGUMENTS})
  SET enable_seqscan = off`;

/**
 * `kv_read`, the read of several keys at one snapshot (migration 3): the entries among `keys`
 * (hex-encoded) that have not expired, with each one's key in hex. Planned with index scans only,
 * like `kv_commit` and for the same reason.
 */
export const CREATE_READ_FUNCTION = `
CREATE FUNCTION kv_read(keys text[])
RETURNS TABLE (hex text, key bytea, kind smallint, value bytea, version bigint)
LANGUAGE plpgsql STABLE SET enable_seqscan = off AS $$
BEGIN
  RETURN QUERY SELECT encode(e.key, 'hex'), e.key, e.kind, e.value, e.version
    FROM kv_entries AS e
    WHERE e.key = ANY (ARRAY(SELECT decode(unnest(keys), 'hex')))
      AND (e.expires_at IS NULL OR e.expires_at > now());
END
$$`;
