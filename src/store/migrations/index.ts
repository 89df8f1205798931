// Every migration, in order. A new migration is a new file and one line here; never edit a shipped one.
import type { Migration } from 'kysely'
import * as identity from './0001-identity.ts'
import * as observability from './0005-observability.ts'

export const migrations: Readonly<Record<string, Migration>> = {
  '0001-identity': identity,
  '0005-observability': observability,
}
