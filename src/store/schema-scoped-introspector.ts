// PostgreSQL introspection limited to the store's own schema. kysely's Migrator asks the introspector
// for every table in the database to learn whether its own two tables exist, and kysely's PostgreSQL
// introspector answers with one catalog query over all schemas that calls name-based functions
// (`has_schema_privilege`, `pg_get_serial_sequence`) per row: a sibling schema dropped while that query
// runs fails it with `schema "…" does not exist`, and the store fails to start. Stores sharing a
// database (tests, one schema per tenant) create and drop schemas all the time, so this introspector
// reads only the store's schema: the one named in the URL, or else the search path's first.
import {
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseIntrospector,
  type DialectAdapter,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely'
import { SchemaScopedPostgresAdapter } from './schema-scoped-postgres-adapter.ts'

const migrationTables = new Set(['kysely_migration', 'kysely_migration_lock'])

interface ColumnRow {
  readonly schema: string
  readonly table: string
  readonly table_kind: string
  readonly column: string
  readonly type: string
  readonly type_schema: string
  readonly not_null: boolean
  readonly has_default: boolean
  readonly serial_sequence: string | null
  readonly comment: string | null
}

// The introspector reads the catalogs with raw SQL only, so it needs no table types: `Kysely<unknown>`.
export class SchemaScopedIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>
  readonly #schema: string | null

  constructor(db: Kysely<unknown>, schema: string | null) {
    this.#db = db
    this.#schema = schema
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    // A plain read of pg_namespace: no per-row function that a concurrent drop could fail.
    return new PostgresIntrospector(this.#db).getSchemas()
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const schema = this.#schema === null ? sql`current_schema()` : sql`${this.#schema}`
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as table_kind, a.attname as column,
             t.typname as type, tns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
             pg_get_serial_sequence(c.oid::regclass::text, a.attname) as serial_sequence,
             col_description(c.oid, a.attnum) as comment
      from pg_catalog.pg_namespace ns
      join pg_catalog.pg_class c on c.relnamespace = ns.oid and c.relkind in ('r', 'v', 'p')
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type t on t.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = t.typnamespace
      where ns.nspname = ${schema}
      order by c.relname, a.attnum`.execute(this.#db)
    const tables = new Map<string, TableMetadata>()
    for (const row of rows) {
      if (options.withInternalKyselyTables !== true && migrationTables.has(row.table)) continue
      let table = tables.get(row.table)
      if (table === undefined) {
        table = { name: row.table, schema: row.schema, isView: row.table_kind === 'v', columns: [] }
        tables.set(row.table, table)
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.serial_sequence !== null,
        ...(row.comment === null ? {} : { comment: row.comment }),
      })
    }
    return [...tables.values()]
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) }
  }
}

/**
 * kysely's PostgreSQL dialect with introspection (and so the Migrator's checks) and the migration lock
 * kept to one schema.
 */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  readonly #schema: string | null

  constructor(config: ConstructorParameters<typeof PostgresDialect>[0], schema: string | null) {
    super(config)
    this.#schema = schema
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db, this.#schema)
  }

  override createAdapter(): DialectAdapter {
    return new SchemaScopedPostgresAdapter()
  }
}
