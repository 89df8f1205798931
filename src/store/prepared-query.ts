// A query compiled once and run with new values: for the statements background workers run several
// times a second (the intern runtime's poll, the batch worker's pass, the outbox claim, direct delivery's
// counts). Building and compiling a Kysely query costs 150-350 K instructions at that rate (V8 keeps such
// code in its baseline tier), several times SQLite's own work on a small table; the SQL text is the same
// every time, only the values change.
import { CompiledQuery, type Compilable } from 'kysely'

/** What a value stands for in the compiled parameters: the argument's index, or -1 for a constant. */
type Slot = number

export class PreparedQuery<Args extends readonly unknown[], Row> {
  readonly sql: string
  readonly #slots: readonly Slot[]
  readonly #constants: readonly unknown[]

  /**
   * `build` is called once, with a marker string in place of each of its `arity` arguments; each must be
   * bound as one value (a comparison, a `set` value, a limit), never decide the SQL's shape (a list
   * spread over `in`, a null that turns `=` into `is`).
   */
  constructor(arity: Args['length'], build: (...args: Args) => Compilable<Row>) {
    const markers = Array.from({ length: arity }, (_, index) => `\u0000prepared argument ${index}\u0000`)
    const compiled = build(...(markers as unknown as Args)).compile()
    this.sql = compiled.sql
    this.#constants = compiled.parameters
    this.#slots = compiled.parameters.map((value) => markers.indexOf(value as string))
    const unbound = markers.filter((_, index) => !this.#slots.includes(index))
    if (unbound.length > 0) throw new Error(`a prepared query left ${unbound.length} argument(s) unbound: ${this.sql}`)
  }

  /** The parameters for these arguments, in the compiled order. */
  parameters(...args: Args): unknown[] {
    return this.#slots.map((slot, index) => (slot === -1 ? this.#constants[index] : args[slot]))
  }

  /** The compiled query for these arguments, for `db.executeQuery`. */
  compiled(...args: Args): CompiledQuery<Row> {
    return CompiledQuery.raw(this.sql, this.parameters(...args)) as CompiledQuery<Row>
  }
}

/**
 * Prepared queries of a few shapes, by key: for a list of constants that decides the SQL (statuses
 * spread over `in`). At most `limit` are kept; past that the cache starts over.
 */
export class PreparedQueryCache<Args extends readonly unknown[], Row> {
  readonly #queries = new Map<string, PreparedQuery<Args, Row>>()
  readonly #arity: Args['length']
  readonly #limit: number

  constructor(arity: Args['length'], limit = 16) {
    this.#arity = arity
    this.#limit = limit
  }

  get(key: string, build: (...args: Args) => Compilable<Row>): PreparedQuery<Args, Row> {
    let query = this.#queries.get(key)
    if (query === undefined) {
      if (this.#queries.size >= this.#limit) this.#queries.clear()
      query = new PreparedQuery(this.#arity, build)
      this.#queries.set(key, query)
    }
    return query
  }
}
