// `switchyard keys create`: mint a key from the command line (bootstrap, automation).
import { parseArgs } from 'node:util'
import { openStore } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { bootstrapIdentity } from '../identity/bootstrap-identity.ts'
import { createOrganizationsRepository } from '../store/repositories/organizations-repository.ts'
import { createApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import { generateKeySecret, hashKeySecret, labelKeySecret } from '../identity/api-key-secret.ts'
import type { CommandContext } from './run-command.ts'

export async function keysCreateCommand(args: string[], context: CommandContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      management: { type: 'boolean', default: false },
      workspace: { type: 'string' },
      name: { type: 'string' },
    },
    strict: true,
  })
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
      createdAt: context.clock.now().toISOString(),
    })
    context.stdout.write(`${plaintext}\n`)
    return 0
  } finally {
    await store.close()
  }
}
