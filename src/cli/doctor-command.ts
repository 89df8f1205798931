// `switchyard doctor`: checks what a deployment needs before it takes traffic — the config (the
// catalog builds from it), the store answers, Redis answers (when configured) and every provider
// accepts the gateway's credentials (one free, authenticated call: its model list). Prints one table
// row per check and exits 1 when any check failed.
import { probeRedis } from '../compose/probe-redis.ts'
import type { Config } from '../config/config.ts'
import { buildCatalog } from '../inference/catalog/build-catalog.ts'
import { openStore } from '../store/open-store.ts'
import type { CommandContext } from './run-command.ts'
import { checkProviderCredentials } from './check-provider-credentials.ts'
import type { ProviderEntry } from '../domain/catalog.ts'
import { credentialSource } from '../config/credential-source.ts'

type CheckStatus = 'ok' | 'skipped' | 'fail'

interface CheckResult {
  readonly check: string
  readonly status: CheckStatus
  readonly detail: string
}

const timeoutMs = 3_000

export async function doctorCommand(_args: string[], context: CommandContext): Promise<number> {
  const results: CheckResult[] = [
    checkConfig(context.config),
    await checkStore(context.config),
    await checkRedis(context.config),
    ...(await checkProviders(context.config)),
  ]
  context.stdout.write(formatTable(results))
  const failed = results.filter((result) => result.status === 'fail').length
  context.stdout.write(failed === 0 ? 'all checks passed\n' : `${failed} check(s) failed\n`)
  return failed === 0 ? 0 : 1
}

function checkConfig(config: Config): CheckResult {
  try {
    const catalog = buildCatalog(config)
    return {
      check: 'config',
      status: 'ok',
      detail: `${config.config_path ?? 'no config file'}; ${catalog.providers().length} providers, ${catalog.models().length} models`,
    }
  } catch (error) {
    return { check: 'config', status: 'fail', detail: messageOf(error) }
  }
}

async function checkStore(config: Config): Promise<CheckResult> {
  const engine = config.store.database_url.startsWith('sqlite:') ? 'sqlite' : 'postgres'
  let store: ReturnType<typeof openStore> | undefined
  try {
    store = openStore(config.store.database_url)
    await withTimeout(store.ping(), 'the store did not answer')
    return { check: 'store', status: 'ok', detail: `${engine} answers` }
  } catch (error) {
    return { check: 'store', status: 'fail', detail: `${engine}: ${messageOf(error)}` }
  } finally {
    await store?.close().catch(() => undefined)
  }
}

async function checkRedis(config: Config): Promise<CheckResult> {
  if (config.store.redis_url === null)
    return {
      check: 'redis',
      status: 'skipped',
      detail: 'REDIS_URL is not set: counters and rate limits are in memory (single node)',
    }
  try {
    await probeRedis(config.store.redis_url, { attempts: 1, connectTimeoutMs: timeoutMs, deadlineMs: timeoutMs })
    return { check: 'redis', status: 'ok', detail: 'PING -> PONG' }
  } catch (error) {
    return { check: 'redis', status: 'fail', detail: messageOf(error) }
  }
}

async function checkProviders(config: Config): Promise<CheckResult[]> {
  let providers
  try {
    providers = buildCatalog(config).providers()
  } catch {
    return []
  }
  return Promise.all(
    providers
      .flatMap((provider) => checkedCredentials(provider))
      .map(async ({ check, provider }): Promise<CheckResult> => ({
        check,
        ...(await checkProviderCredentials(provider, credentialSource(config, provider), timeoutMs)),
      })),
  )
}

/** One check per provider, or per key of a provider's credential pool (the provider holding that key). */
function checkedCredentials(provider: ProviderEntry): { check: string; provider: ProviderEntry }[] {
  if (provider.credentials === undefined) return [{ check: `provider ${provider.slug}`, provider }]
  return provider.credentials.map((credential) => ({
    check: `provider ${provider.slug} key ${credential.name}`,
    provider: { ...provider, apiKey: credential.apiKey },
  }))
}

function formatTable(results: readonly CheckResult[]): string {
  const rows = [{ check: 'CHECK', status: 'STATUS', detail: 'DETAIL' }, ...results]
  const checkWidth = Math.max(...rows.map((row) => row.check.length))
  const statusWidth = Math.max(...rows.map((row) => row.status.length))
  return (
    rows.map((row) => `${row.check.padEnd(checkWidth)}  ${row.status.padEnd(statusWidth)}  ${row.detail}`).join('\n') +
    '\n'
  )
}

async function withTimeout<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ''
  return `${error.message}${cause}`
}
