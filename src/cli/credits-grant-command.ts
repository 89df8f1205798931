// `switchyard credits grant <usd> [--note <text>]`: add credits to the organization's balance.
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { openStore } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { bootstrapIdentity } from '../identity/bootstrap-identity.ts'
import { createCreditGrantsRepository } from '../store/repositories/credit-grants-repository.ts'
import { usdToNano } from '../domain/money.ts'
import { formatUsd } from '../accounting/format-usd.ts'
import type { CommandContext } from './run-command.ts'

const usage = 'usage: switchyard credits grant <usd> [--note <text>]   (<usd> a positive amount such as 25 or 12.50)\n'

function parseGrant(args: string[]): { amountNano: bigint; note: string | null } | null {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { note: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    })
    const amount = positionals.length === 1 ? Number(positionals[0]) : Number.NaN
    const amountNano = Number.isFinite(amount) && amount > 0 ? usdToNano(amount) : 0n
    return amountNano > 0n ? { amountNano, note: values.note ?? null } : null
  } catch {
    return null
  }
}

export async function creditsGrantCommand(args: string[], context: CommandContext): Promise<number> {
  const parsed = parseGrant(args)
  if (parsed === null) {
    context.stderr.write(usage)
    return 2
  }
  const { amountNano, note } = parsed
  const store = openStore(context.config.store.database_url)
  try {
    await migrateToLatest(store)
    const { organizationId } = await bootstrapIdentity(store, context.clock, context.config.secrets.admin_key)
    const grants = createCreditGrantsRepository(store.db)
    await grants.insert({
      id: randomUUID(),
      organization_id: organizationId,
      amount_nano: amountNano.toString(),
      note,
      created_at: context.clock.now().toISOString(),
    })
    context.stdout.write(
      `granted ${formatUsd(amountNano)}; total credits ${formatUsd(await grants.totalNano(organizationId))}\n`,
    )
    return 0
  } finally {
    await store.close()
  }
}
