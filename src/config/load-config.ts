// Builds the frozen Config from the environment and the optional YAML file. Every problem is collected
// and reported at once, each with its path, before anything starts.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseDocument } from 'yaml'
import { Value } from 'typebox/value'
import type { Config, LogLevelName, ResponseCacheSetting } from './config.ts'
import { ConfigFileSchema, type ConfigFile } from './schema.ts'
import { interpolateEnv, type InterpolationProblem } from './interpolate-env.ts'
import { formatSchemaErrors } from './format-schema-errors.ts'
import { collectAllErrors } from '../domain/collect-all-errors.ts'
import { findSemanticProblems } from './find-semantic-problems.ts'
import { describeYamlError } from './describe-yaml-error.ts'
import { deepFreeze } from './deep-freeze.ts'
import { serverToolsSetting } from './server-tools-config.ts'
import { cloudEnvNames } from './cloud-presets.ts'

export type Env = Readonly<Record<string, string | undefined>>

export class ConfigError extends Error {
  readonly problems: readonly string[]
  constructor(source: string, problems: readonly string[]) {
    super(`invalid configuration (${source}):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

const logLevels: readonly LogLevelName[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
const providerEnvNames = /^(?:[A-Z0-9]+_API_KEY|[A-Z0-9]+_BASE_URL)$/
const reservedEnvNames = new Set(['SWITCHYARD_ADMIN_KEY', 'SWITCHYARD_MASTER_KEY'])

export interface LoadConfigOptions {
  readonly env: Env
  readonly cwd: string
}

export function loadConfig({ env, cwd }: LoadConfigOptions): Config {
  const configPath = findConfigFile(env, cwd)
  const source = configPath ?? 'environment'
  const problems: string[] = []
  const file = configPath === null ? {} : readConfigFile(configPath, env, problems)
  const runtime = readEnvironment(env, cwd, problems)
  const providerEnv = collectProviderEnv(env)
  problems.push(...findSemanticProblems(file, providerEnv))
  if (problems.length > 0) throw new ConfigError(source, problems)
  // Every schema error of the file is among the problems above, so here it matches ConfigFile.
  return deepFreeze(buildConfig(file as ConfigFile, runtime, configPath, providerEnv))
}

function findConfigFile(env: Env, cwd: string): string | null {
  const named = env.SWITCHYARD_CONFIG
  if (named !== undefined && named !== '') return resolve(cwd, named)
  const fallback = resolve(cwd, 'switchyard.yaml')
  return existsSync(fallback) ? fallback : null
}

/** The file's tree after interpolation, which the semantic checks read too; its problems join `problems`. */
function readConfigFile(path: string, env: Env, problems: string[]): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    problems.push(`cannot read config file ${path}: ${(error as Error).message}`)
    return {}
  }
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true })
  const [firstError] = document.errors
  if (firstError !== undefined) {
    problems.push(describeYamlError(firstError, text))
    return {}
  }
  const raw: unknown = document.toJS() ?? {}
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push('the config file must be a YAML mapping at the top level')
    return {}
  }
  const interpolationProblems: InterpolationProblem[] = []
  const interpolated = interpolateEnv(raw, env, interpolationProblems)
  for (const problem of interpolationProblems) problems.push(`${problem.path}: ${problem.message}`)
  problems.push(...formatSchemaErrors(collectAllErrors(() => Value.Errors(ConfigFileSchema, interpolated))))
  return interpolated
}

interface Runtime {
  /** The directory relative paths are resolved against. */
  cwd: string
  host: string
  port: number
  databaseUrl: string
  redisUrl: string | null
  dataDir: string
  adminKey: string | null
  masterKey: string | null
  logLevel: LogLevelName
}

function readEnvironment(env: Env, cwd: string, problems: string[]): Runtime {
  const dataDir = resolve(cwd, 'data')
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT: must be an integer from 0 to 65535, got "${env.PORT}"`)
  const databaseUrl = nonEmpty(env.DATABASE_URL) ?? `sqlite:${resolve(dataDir, 'switchyard.db')}`
  if (!/^(?:sqlite:.+|postgres(?:ql)?:\/\/.+)$/.test(databaseUrl)) {
    problems.push(
      `DATABASE_URL: must be sqlite:<path> or postgres://..., got "${databaseUrl.replace(/:[^:@/]*@/, ':***@')}"`,
    )
  }
  const redisUrl = nonEmpty(env.REDIS_URL)
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl))
    problems.push('REDIS_URL: must start with redis:// or rediss://')
  const masterKey = nonEmpty(env.SWITCHYARD_MASTER_KEY)
  if (masterKey !== null && Buffer.from(masterKey, 'base64').length !== 32) {
    problems.push('SWITCHYARD_MASTER_KEY: must be 32 bytes encoded as base64 (for example: openssl rand -base64 32)')
  }
  const logLevel = (nonEmpty(env.LOG_LEVEL) ?? 'info') as LogLevelName
  if (!logLevels.includes(logLevel))
    problems.push(`LOG_LEVEL: must be one of ${logLevels.join(', ')}, got "${logLevel}"`)
  const adminKey = nonEmpty(env.SWITCHYARD_ADMIN_KEY)
  if (adminKey !== null && adminKey.length < 32) problems.push('SWITCHYARD_ADMIN_KEY: must be at least 32 characters')
  return {
    cwd,
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    port,
    databaseUrl: databaseUrl.startsWith('sqlite:')
      ? `sqlite:${resolve(cwd, databaseUrl.slice('sqlite:'.length))}`
      : databaseUrl,
    redisUrl,
    dataDir,
    adminKey,
    masterKey,
    logLevel,
  }
}

function buildConfig(
  file: ConfigFile,
  runtime: Runtime,
  configPath: string | null,
  providerEnv: Readonly<Record<string, string>>,
): Config {
  return {
    server: {
      host: runtime.host,
      port: runtime.port,
      regional_hostnames: (file.server?.regional_hostnames ?? []).map((host) => host.toLowerCase()),
      body_limit_bytes: file.server?.body_limit_bytes ?? 32 * 1024 * 1024,
      trust_proxy: file.server?.trust_proxy ?? false,
    },
    metrics: {
      require_management_key: file.metrics?.require_management_key ?? false,
      port: file.metrics?.port ?? null,
      host: file.metrics?.host ?? runtime.host,
    },
    store: { database_url: runtime.databaseUrl, redis_url: runtime.redisUrl, data_dir: runtime.dataDir },
    secrets: { admin_key: runtime.adminKey, master_key: runtime.masterKey },
    log_level: runtime.logLevel,
    config_path: configPath,
    console: { assets_dir: resolve(runtime.cwd, file.console?.assets_dir ?? 'dist/console') },
    egress: { allow_private_networks: file.egress?.allow_private_networks ?? false },
    server_tools: serverToolsSetting(file.server_tools),
    interns: {
      workspaces: file.interns?.workspaces ?? ['*'],
      ...(file.interns?.domain === undefined ? {} : { domain: file.interns.domain }),
      runtime: file.interns?.runtime ?? true,
    },
    vault: { writes_disabled: file.vault?.writes_disabled ?? false },
    credits: { enforce: file.credits?.enforce ?? false },
    embeddings: { max_input_chars: file.embeddings?.max_input_chars ?? 1_000_000 },
    systemone: { namespace: file.systemone?.namespace ?? 'typesafe/' },
    alignment: { evaluator_model: file.alignment?.evaluator_model ?? null },
    batches: {
      poll_interval_ms: file.batches?.poll_interval_ms ?? 1000,
      concurrency: file.batches?.concurrency ?? 32,
      per_batch_concurrency: file.batches?.per_batch_concurrency ?? 16,
      lease_ms: file.batches?.lease_ms ?? 10 * 60 * 1000,
      max_body_bytes: file.batches?.max_body_bytes ?? 256 * 1024 * 1024,
      max_requests: file.batches?.max_requests ?? 50_000,
      webhook_secret: file.batches?.webhook_secret ?? null,
    },
    rate_limits: rateLimitSettings(file),
    providers: file.providers ?? [],
    models: file.models ?? [],
    provider_env: providerEnv,
    observability: { delivery: { ...(file.observability?.delivery ?? {}) } },
    generations: { content_retention_days: file.generations?.content_retention_days ?? 30 },
    durability: { write_behind: file.durability?.write_behind ?? false },
    cache: cacheSetting(file.cache),
  }
}

/** The response cache's bounds; a default TTL above the maximum is cut to it. */
function cacheSetting(file: ConfigFile['cache']): ResponseCacheSetting {
  const maxTtl = file?.max_ttl_seconds ?? 86_400
  return {
    enabled: file?.enabled ?? true,
    default_ttl_seconds: Math.min(file?.default_ttl_seconds ?? 300, maxTtl),
    max_ttl_seconds: maxTtl,
    max_entry_bytes: file?.max_entry_bytes ?? 1024 * 1024,
    memory_max_bytes: file?.memory_max_bytes ?? 64 * 1024 * 1024,
    memory_max_entries: file?.memory_max_entries ?? 10_000,
  }
}

function rateLimitSettings(file: ConfigFile): Config['rate_limits'] {
  const limit = (value: number | null | undefined): number | null => value ?? null
  return {
    per_key: {
      requests_per_minute: limit(file.rate_limits?.per_key?.requests_per_minute),
      tokens_per_minute: limit(file.rate_limits?.per_key?.tokens_per_minute),
    },
    per_organization: {
      requests_per_minute: limit(file.rate_limits?.per_organization?.requests_per_minute),
      tokens_per_minute: limit(file.rate_limits?.per_organization?.tokens_per_minute),
    },
    management: { requests_per_minute: limit(file.rate_limits?.management?.requests_per_minute) },
  }
}

function collectProviderEnv(env: Env): Record<string, string> {
  const found: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (
      value !== undefined &&
      value !== '' &&
      (providerEnvNames.test(name) || cloudEnvNames.has(name)) &&
      !reservedEnvNames.has(name)
    )
      found[name] = value
  }
  return found
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value
}
