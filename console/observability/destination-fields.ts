// The `config` fields of each observability destination type, as the API checks them (api-reference
// §6.3; the server's table is src/observability/destination-types.ts, and a test keeps the two equal).
// `secret` fields are typed as passwords; `values` are closed choices; `default` is what an empty input means.
export interface FieldRule {
  readonly required: boolean
  readonly default?: string
  readonly secret?: boolean
  readonly url?: boolean
  readonly values?: readonly string[]
}

const required: FieldRule = { required: true }
const optional: FieldRule = { required: false }
const secret: FieldRule = { required: true, secret: true }
const url = (value: string): FieldRule => ({ required: false, default: value, url: true })
const text = (value: string): FieldRule => ({ required: false, default: value })

export const destinationFields: Readonly<Record<string, Readonly<Record<string, FieldRule>>>> = {
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
