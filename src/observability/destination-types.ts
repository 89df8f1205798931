// The 17 destination types and the shape of each one's `config` (api-reference §6.3; camelCase keys).
// Every type also takes optional `headers` ({string: string}); header values are treated as secrets.

export type DestinationType =
  | 'arize'
  | 'braintrust'
  | 'clickhouse'
  | 'datadog'
  | 'grafana'
  | 'langfuse'
  | 'langsmith'
  | 'newrelic'
  | 'opik'
  | 'otel-collector'
  | 'posthog'
  | 'ramp'
  | 's3'
  | 'sentry'
  | 'snowflake'
  | 'weave'
  | 'webhook'

export type Region = 'global' | 'europe' | 'us'

export interface ConfigField {
  readonly required: boolean
  readonly default?: string
  /** Encrypted at rest and masked in responses. */
  readonly secret?: boolean
  /** An outbound URL: checked against the egress policy. */
  readonly url?: boolean
  /** Allowed values, when closed. */
  readonly values?: readonly string[]
}

const required: ConfigField = { required: true }
const optional: ConfigField = { required: false }
const secret: ConfigField = { required: true, secret: true }
const url = (value: string): ConfigField => ({ required: false, default: value, url: true })
const text = (value: string): ConfigField => ({ required: false, default: value })

export const configFields: Readonly<Record<DestinationType, Readonly<Record<string, ConfigField>>>> = {
  arize: { apiKey: secret, spaceKey: required, modelId: required, baseUrl: url('https://otlp.arize.com') },
  braintrust: { apiKey: secret, projectId: required, baseUrl: url('https://api.braintrust.dev') },
  clickhouse: {
    host: required,
    database: required,
    username: required,
    password: secret,
    table: text('OPENROUTER_TRACES'),
  },
  datadog: { apiKey: secret, mlApp: required, url: url('https://api.datadoghq.com') },
  grafana: { apiKey: secret, instanceId: required, baseUrl: url('https://otlp-gateway-prod-us-west-0.grafana.net') },
  langfuse: { publicKey: required, secretKey: secret, baseUrl: url('https://us.cloud.langfuse.com') },
  langsmith: {
    apiKey: secret,
    endpoint: url('https://api.smith.langchain.com'),
    project: text('main'),
    workspaceId: optional,
  },
  newrelic: { licenseKey: secret, region: { required: false, default: 'us', values: ['us', 'eu'] } },
  opik: { apiKey: secret, workspace: required, projectName: required },
  'otel-collector': { endpoint: { required: true, url: true } },
  posthog: { apiKey: secret, endpoint: url('https://us.i.posthog.com') },
  ramp: { apiKey: secret, baseUrl: url('https://api.ramp.com/developer/v1/ai-usage/openrouter') },
  s3: {
    accessKeyId: required,
    secretAccessKey: secret,
    bucketName: required,
    region: optional,
    endpoint: { required: false, url: true },
    sessionToken: { required: false, secret: true },
    prefix: text('openrouter-traces'),
    pathTemplate: text('{prefix}/{date}'),
  },
  sentry: { dsn: secret, otlpEndpoint: { required: true, url: true } },
  snowflake: {
    account: required,
    token: secret,
    database: text('SNOWFLAKE_LEARNING_DB'),
    schema: text('PUBLIC'),
    table: text('OPENROUTER_TRACES'),
    warehouse: text('COMPUTE_WH'),
  },
  weave: { apiKey: secret, entity: required, project: required, baseUrl: url('https://trace.wandb.ai') },
  webhook: {
    url: { required: true, url: true },
    method: { required: false, default: 'POST', values: ['POST', 'PUT'] },
    secret: { required: false, secret: true },
  },
}

export const destinationTypes = Object.keys(configFields) as DestinationType[]

/** A destination's config with secrets in plaintext: string fields plus optional headers. */
export interface DestinationConfig {
  readonly [field: string]: string | Readonly<Record<string, string>> | undefined
  readonly headers?: Readonly<Record<string, string>>
}

export function configString(config: DestinationConfig, field: string): string | undefined {
  const value = config[field]
  return typeof value === 'string' ? value : undefined
}
