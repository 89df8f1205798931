// Where each OTLP-speaking product takes traces (OTLP/HTTP protobuf) and with which headers. A product
// not listed here has no exporter yet and is refused at create.
import type { Attributes } from '@opentelemetry/api'
import { configString, type DestinationConfig } from '../destination-types.ts'

export interface OtlpTarget {
  readonly url: string
  readonly headers: Record<string, string>
  readonly resource?: Attributes
}

export type OtlpProduct =
  | 'otel-collector'
  | 'arize'
  | 'braintrust'
  | 'grafana'
  | 'langfuse'
  | 'langsmith'
  | 'newrelic'
  | 'opik'
  | 'sentry'
  | 'weave'

const field = (config: DestinationConfig, name: string): string => configString(config, name) ?? ''
const join = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`
const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

function sentryKey(dsn: string): string {
  try {
    return new URL(dsn).username
  } catch {
    return ''
  }
}

export const otlpTargets: Readonly<Record<OtlpProduct, (config: DestinationConfig) => OtlpTarget>> = {
  'otel-collector': (config) => ({ url: field(config, 'endpoint'), headers: {} }),
  arize: (config) => ({
    url: join(field(config, 'baseUrl'), '/v1/traces'),
    headers: { space_id: field(config, 'spaceKey'), api_key: field(config, 'apiKey') },
    resource: { model_id: field(config, 'modelId'), 'openinference.project.name': field(config, 'modelId') },
  }),
  braintrust: (config) => ({
    url: join(field(config, 'baseUrl'), '/otel/v1/traces'),
    headers: {
      authorization: `Bearer ${field(config, 'apiKey')}`,
      'x-bt-parent': `project_id:${field(config, 'projectId')}`,
    },
  }),
  grafana: (config) => ({
    url: join(field(config, 'baseUrl'), '/otlp/v1/traces'),
    headers: { authorization: basic(field(config, 'instanceId'), field(config, 'apiKey')) },
  }),
  langfuse: (config) => ({
    url: join(field(config, 'baseUrl'), '/api/public/otel/v1/traces'),
    headers: { authorization: basic(field(config, 'publicKey'), field(config, 'secretKey')) },
  }),
  langsmith: (config) => ({
    url: join(field(config, 'endpoint'), '/otel/v1/traces'),
    headers: {
      'x-api-key': field(config, 'apiKey'),
      'langsmith-project': field(config, 'project'),
      ...(configString(config, 'workspaceId') === undefined ? {} : { 'x-tenant-id': field(config, 'workspaceId') }),
    },
  }),
  newrelic: (config) => ({
    url:
      field(config, 'region') === 'eu'
        ? 'https://otlp.eu01.nr-data.net/v1/traces'
        : 'https://otlp.nr-data.net/v1/traces',
    headers: { 'api-key': field(config, 'licenseKey') },
  }),
  opik: (config) => ({
    url: 'https://www.comet.com/opik/api/v1/private/otel/v1/traces',
    headers: {
      authorization: field(config, 'apiKey'),
      'comet-workspace': field(config, 'workspace'),
      projectname: field(config, 'projectName'),
    },
  }),
  sentry: (config) => ({
    url: field(config, 'otlpEndpoint'),
    headers: { 'x-sentry-auth': `sentry sentry_key=${sentryKey(field(config, 'dsn'))}` },
  }),
  weave: (config) => ({
    url: join(field(config, 'baseUrl'), '/otel/v1/traces'),
    headers: {
      authorization: basic('api', field(config, 'apiKey')),
      project_id: `${field(config, 'entity')}/${field(config, 'project')}`,
    },
  }),
}
