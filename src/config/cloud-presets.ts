// Built-in cloud providers, enabled by their usual environment variables. Their base URL and options
// come from several variables, so each preset reads them in `fromEnv` (null: not enough to enable it).
import type { BuiltinProvider, PresetSettings } from './builtin-providers.ts'
import { vertexBaseUrl } from '../providers/vertex/urls.ts'

type Env = Readonly<Record<string, string>>

/** Azure OpenAI: AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT; OPENAI_API_VERSION picks deployment URLs. */
function azureFromEnv(env: Env): PresetSettings | null {
  const endpoint = env.AZURE_OPENAI_ENDPOINT
  if (endpoint === undefined) return null
  const version = env.OPENAI_API_VERSION
  return {
    baseUrl: endpoint.replace(/\/+$/, '').replace(/\/openai$/, ''),
    apiKey: env.AZURE_OPENAI_API_KEY ?? null,
    options: version === undefined ? {} : { api_version: version },
  }
}

/**
 * Amazon Bedrock: AWS_REGION (or AWS_DEFAULT_REGION) with AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key),
 * AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN), or AWS_PROFILE (shared credentials file).
 */
function bedrockFromEnv(env: Env): PresetSettings | null {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION
  if (region === undefined) return null
  const baseUrl = `https://bedrock-runtime.${region}.amazonaws.com`
  if (env.AWS_BEARER_TOKEN_BEDROCK !== undefined)
    return { baseUrl, apiKey: env.AWS_BEARER_TOKEN_BEDROCK, options: { region } }
  const options: Record<string, string> = { region }
  if (env.AWS_ACCESS_KEY_ID !== undefined && env.AWS_SECRET_ACCESS_KEY !== undefined) {
    options.access_key_id = env.AWS_ACCESS_KEY_ID
    options.secret_access_key = env.AWS_SECRET_ACCESS_KEY
    if (env.AWS_SESSION_TOKEN !== undefined) options.session_token = env.AWS_SESSION_TOKEN
  } else if (env.AWS_PROFILE !== undefined) {
    options.profile = env.AWS_PROFILE
    if (env.AWS_SHARED_CREDENTIALS_FILE !== undefined) options.credentials_file = env.AWS_SHARED_CREDENTIALS_FILE
  } else return null
  return { baseUrl, apiKey: null, options }
}

/**
 * Google Vertex AI: VERTEX_PROJECT, VERTEX_LOCATION (default `global`) and the credentials, as Google's
 * Application Default Credentials take them: the key file GOOGLE_APPLICATION_CREDENTIALS names, the key
 * inline in GOOGLE_APPLICATION_CREDENTIALS_JSON, or an access token in VERTEX_ACCESS_TOKEN.
 */
function vertexFromEnv(env: Env): PresetSettings | null {
  const project = env.VERTEX_PROJECT
  if (project === undefined) return null
  const location = env.VERTEX_LOCATION ?? 'global'
  const options: Record<string, string> = { project, location }
  const file = env.GOOGLE_APPLICATION_CREDENTIALS
  const inline = env.GOOGLE_APPLICATION_CREDENTIALS_JSON
  if (inline !== undefined) options.credentials_json = inline
  else if (file !== undefined) options.credentials_file = file
  else if (env.VERTEX_ACCESS_TOKEN === undefined) return null
  return { baseUrl: vertexBaseUrl(location), apiKey: env.VERTEX_ACCESS_TOKEN ?? null, options }
}

export const cloudPresets: readonly BuiltinProvider[] = [
  {
    slug: 'bedrock',
    name: 'Amazon Bedrock',
    api: 'bedrock',
    variable: 'AWS_REGION',
    baseUrl: null,
    dataCollection: 'deny',
    zdr: false,
    region: 'global',
    fromEnv: bedrockFromEnv,
  },
  {
    slug: 'bedrock',
    name: 'Amazon Bedrock',
    api: 'bedrock',
    variable: 'AWS_DEFAULT_REGION',
    baseUrl: null,
    dataCollection: 'deny',
    zdr: false,
    region: 'global',
    fromEnv: bedrockFromEnv,
  },
  {
    slug: 'azure',
    name: 'Azure OpenAI',
    api: 'azure-openai',
    variable: 'AZURE_OPENAI_API_KEY',
    baseUrl: null,
    dataCollection: 'deny',
    zdr: false,
    region: 'global',
    fromEnv: azureFromEnv,
  },
  {
    slug: 'vertex',
    name: 'Google Vertex AI',
    api: 'vertex',
    variable: 'VERTEX_PROJECT',
    baseUrl: null,
    dataCollection: 'deny',
    zdr: false,
    region: 'global',
    fromEnv: vertexFromEnv,
  },
]

/** Every variable a cloud preset reads, collected by the config loader besides `*_API_KEY` / `*_BASE_URL`. */
export const cloudEnvNames: ReadonlySet<string> = new Set([
  'AZURE_OPENAI_API_KEY',
  'AZURE_OPENAI_ENDPOINT',
  'OPENAI_API_VERSION',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_BEARER_TOKEN_BEDROCK',
  'VERTEX_PROJECT',
  'VERTEX_LOCATION',
  'VERTEX_ACCESS_TOKEN',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_APPLICATION_CREDENTIALS_JSON',
])
