// Every statement the store runs through Kysely binds its string parameters as storable text
// (`toStorableText`): a NUL or an unpaired surrogate becomes U+FFFD. PostgreSQL refuses NUL in text
// ("invalid byte sequence for encoding UTF8: 0x00") while SQLite keeps it, so without this one engine
// stores what the other refuses; with it, free text (names, descriptions, `user`, metadata) is written
// and matched the same way on both, and a lookup by such a value finds nothing instead of failing.
// Batched rows sent to the SQLite write worker bypass Kysely and are converted in `batch-insert.ts`.
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely'
import { toStorableText } from '../domain/storable-text.ts'

/** `dialect` with its connections binding storable text. */
export function withStorableText(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new StorableTextDriver(dialect.createDriver()),
  }
}

/** A string parameter as storable text; other values as they are. */
export function toStorableParameter(value: unknown): unknown {
  return typeof value === 'string' ? toStorableText(value) : value
}

/** The query itself when every parameter is storable already (nearly always), else a copy with storable text. */
function storableQuery(query: CompiledQuery): CompiledQuery {
  const { parameters } = query
  for (let index = 0; index < parameters.length; index++) {
    const value = parameters[index]
    if (typeof value === 'string' && toStorableText(value) !== value)
      return { ...query, parameters: parameters.map(toStorableParameter) }
  }
  return query
}

class StorableTextConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.inner.executeQuery(storableQuery(query))
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery(storableQuery(query), chunkSize)
  }
}

/** Hands out wrapped connections, and gives the inner driver its own connection back in every other call. */
class StorableTextDriver implements Driver {
  readonly #inner: Driver

  constructor(inner: Driver) {
    this.#inner = inner
  }

  init(): Promise<void> {
    return this.#inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new StorableTextConnection(await this.#inner.acquireConnection())
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(innerOf(connection), settings)
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(innerOf(connection))
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(innerOf(connection))
  }

  savepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    return savepointCall(this.#inner, 'savepoint')(innerOf(connection), name, compile)
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    return savepointCall(this.#inner, 'rollbackToSavepoint')(innerOf(connection), name, compile)
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    return savepointCall(this.#inner, 'releaseSavepoint')(innerOf(connection), name, compile)
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(innerOf(connection))
  }

  destroy(): Promise<void> {
    return this.#inner.destroy()
  }
}

type CompileQuery = QueryCompiler['compileQuery']
type SavepointCall = NonNullable<Driver['savepoint']>

/** The inner driver's savepoint method, bound to it; both engines' drivers have them. */
function savepointCall(driver: Driver, name: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint'): SavepointCall {
  const method = driver[name]
  if (method === undefined) throw new Error(`the store driver has no ${name}`)
  return method.bind(driver)
}

function innerOf(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof StorableTextConnection ? connection.inner : connection
}
