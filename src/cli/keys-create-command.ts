// `switchyard keys create`: mint a key from the command line (bootstrap, automation), optionally with a
// name and a spending limit in USD that resets daily, weekly or monthly (as POST /api/v1/keys takes).
import { parseArgs } from 'node:util'
import { openStore } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { bootstrapIdentity } from '../identity/bootstrap-identity.ts'
import { createOrganizationsRepository } from '../store/repositories/organizations-repository.ts'
import { createApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../identity/api-key-secret.ts'
import type { CommandContext } from './run-command.ts'
import type { LimitReset } from '../domain/identity.ts'

const limitResets: readonly LimitReset[] = ['daily', 'weekly', 'monthly']

interface KeyOptions {
  readonly management: boolean
  readonly workspace?: string
  readonly name?: string
  readonly limitUsd: string | null
  readonly limitReset: LimitReset | null
}

/** The options, or the line saying which one is wrong and what it takes. */
function parseKeyOptions(args: string[]): KeyOptions | string {
  let values
  try {
    ;({ values } = parseArgs({
      args,
      options: {
        management: { type: 'boolean', default: false },
        workspace: { type: 'string' },
        name: { type: 'string' },
        limit: { type: 'string' },
        'limit-reset': { type: 'string' },
      },
      strict: true,
    }))
  } catch (error) {
    return (error as Error).message
  }
  const limit = values.limit
  if (limit !== undefined && !/^\d+(\.\d+)?$/.test(limit))
    return `--limit takes a spending limit in USD, a number such as 25 or 12.50 (got "${limit}")`
  const reset = values['limit-reset']
  const limitReset = limitResets.find((candidate) => candidate === reset) ?? null
  if (reset !== undefined && limitReset === null)
    return `--limit-reset takes ${limitResets.join(', ')} (got "${reset}")`
  if (values.management && (limit !== undefined || reset !== undefined))
    return '--limit and --limit-reset apply to inference keys, not --management keys'
  return {
    management: values.management,
    ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
    ...(values.name === undefined ? {} : { name: values.name }),
    limitUsd: limit === undefined ? null : String(Number(limit)),
    limitReset,
  }
}

export async function keysCreateCommand(args: string[], context: CommandContext): Promise<number> {
  const values = parseKeyOptions(args)
  if (typeof values === 'string') {
    context.stderr.write(`${values}\n`)
    return 2
  }
  const store = openStore(context.config.store.database_url)
  try {
    await migrateToLatest(store)
    const identity = await bootstrapIdentity(store, context.clock, context.config.secrets.admin_key)
    const workspace =
      values.workspace === undefined
        ? null
        : await createOrganizationsRepository(store.db).findWorkspace(values.workspace)
    if (values.workspace !== undefined && workspace == null) {
      context.stderr.write(`no workspace with id or slug "${values.workspace}"\n`)
      return 2
    }
    const plaintext = generateKeySecret()
    const kind = values.management ? 'management' : 'inference'
    await createApiKeysRepository(store.db).insert({
      hash: hashKeySecret(plaintext),
      kind,
      name: values.name ?? (values.management ? 'CLI management key' : 'CLI key'),
      label: labelKeySecret(plaintext),
      organizationId: identity.organizationId,
      workspaceId: workspace?.id ?? identity.defaultWorkspaceId,
      creatorUserId: identity.ownerUserId,
      limitUsd: values.limitUsd,
      limitReset: values.limitReset,
      createdAt: context.clock.now().toISOString(),
    })
    context.stdout.write(`${plaintext}\n`)
    return 0
  } finally {
    await store.close()
  }
}
