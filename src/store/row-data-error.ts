// Tells a failure caused by the data of a row (the engine cannot hold a value, or it breaks a constraint)
// apart from one about the store itself (connection, disk, locks, timeouts): only the first kind is
// worth isolating row by row, and only it may set a row aside. Looks through `cause` chains.

/**
 * PostgreSQL SQLSTATE classes 22 (data exception: invalid byte sequence, value too long, out of range,
 * invalid text representation) and 23 (integrity constraint violation), and 54000 (program limit
 * exceeded: an index row too large for a long value).
 */
const postgresDataState = /^(22[0-9A-Z]{3}|23[0-9A-Z]{3}|54000)$/
/** SQLite's constraint failures, a datatype mismatch, a string or blob too big. */
const sqliteDataCode = /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/

export function isRowDataError(error: unknown): boolean {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 5;
    current = current.cause, depth++
  ) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (postgresDataState.test(code) || sqliteDataCode.test(code))) return true
  }
  return false
}
