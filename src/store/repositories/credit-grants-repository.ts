// Credit grants: amounts added to the organization's balance, nano-dollars as decimal text.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../database.ts'
import type { CreditGrantTable } from '../tables/ledger-credits-tables.ts'

export type CreditGrantRow = Selectable<CreditGrantTable>

export function createCreditGrantsRepository(db: Kysely<Database>) {
  return {
    async insert(row: CreditGrantRow): Promise<void> {
      await db.insertInto('credit_grants').values(row).execute()
    },

    /** The sum of every grant of the organization, exact (summed as bigint, not in SQL). */
    async totalNano(organizationId: string): Promise<bigint> {
      const rows = await db
        .selectFrom('credit_grants')
        .select('amount_nano')
        .where('organization_id', '=', organizationId)
        .execute()
      return rows.reduce((sum, row) => sum + BigInt(row.amount_nano), 0n)
    },
  }
}

export type CreditGrantsRepository = ReturnType<typeof createCreditGrantsRepository>
