/**
 * What a number may be, by the column that keeps it (issue 21 item 1). Every integer and number of a
 * route's body, query string or path has both bounds in its schema: a field that names its own keeps
 * them; the others get the `integer` column's (`boundNumbers`, schemas/bounds.ts, applied to every
 * route as it is registered), so 2147483648 or 10²⁰ is refused with 400 at its field before any
 * query, never a 500 from the database.
 */

/** PostgreSQL `integer` and `serial`: ids, counts, sizes in most tables, Unix times in seconds (to 2038). */
export const INT_MAX = 2_147_483_647;
export const INT_MIN = -2_147_483_648;

/** PostgreSQL `bigint` as JavaScript reads it without loss (versions, byte counters). */
export const BIGINT_MAX = Number.MAX_SAFE_INTEGER;

/** The field message of a number beyond what its column holds. */
export const OUT_OF_RANGE_MESSAGE = '数值超出允许范围';

/*
 * What a request body may be (issue 34 items 1 and 3). A JSON body is at most JSON_BODY_LIMIT bytes unless
 * its route names its own `bodyLimit` (the edge's reports, the statistics pipeline, uploads), and nests at
 * most MAX_JSON_DEPTH arrays and objects: deeper JSON is refused while it is parsed, before any check
 * walks it.
 */
export const JSON_BODY_LIMIT = 256 * 1024;
export const MAX_JSON_DEPTH = 32;
/** The field message of JSON nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP_MESSAGE = `数据嵌套层级过深（最多 ${MAX_JSON_DEPTH} 层）`;
