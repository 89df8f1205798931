// Vertex AI request paths, relative to the regional endpoint (`https://{location}-aiplatform.googleapis.com`,
// `https://aiplatform.googleapis.com` for the global location, `https://aiplatform.{us|eu}.rep.googleapis.com`
// for the multi-regions): `/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{method}`.
// `options.project` names the project; `options.location` the location, else the one in base_url. A
// base_url that already ends in `/{version}/projects/{project}/locations/{location}` (a private endpoint's,
// which has no options) is used as is: paths are then `/publishers/{publisher}/models/{model}:{method}`.
import { GatewayError } from '../../domain/errors.ts'
import type { ProviderSettings } from '../provider-adapter.ts'

export type VertexPublisher = 'google' | 'anthropic'

/** The location of a provider: `options.location`, else the one its base_url names. */
export function vertexLocation(settings: ProviderSettings): string {
  const configured = settings.options?.location
  if (configured !== undefined && configured !== '') return configured
  const host = hostOf(settings.baseUrl)
  const regional = /^([a-z0-9-]+)-aiplatform\.googleapis\.com$/.exec(host)?.[1]
  if (regional !== undefined) return regional
  const multiRegion = /^aiplatform\.([a-z]+)\.rep\.googleapis\.com$/.exec(host)?.[1]
  if (multiRegion !== undefined) return multiRegion
  if (host === 'aiplatform.googleapis.com') return 'global'
  throw new GatewayError(
    'upstream_error',
    `Vertex AI provider ${settings.slug}: set options.location (its base_url names no location)`,
  )
}

/** The endpoint serving a location, as Google's SDKs form it. */
export function vertexBaseUrl(location: string): string {
  if (location === 'global') return 'https://aiplatform.googleapis.com'
  if (location === 'us' || location === 'eu') return `https://aiplatform.${location}.rep.googleapis.com`
  return `https://${location}-aiplatform.googleapis.com`
}

/** Which publisher serves an upstream model id: Claude models are Anthropic's, every other Google's. */
export function vertexPublisher(upstreamModelId: string): VertexPublisher {
  return /^(publishers\/anthropic\/models\/|anthropic\/)?claude/.test(upstreamModelId) ? 'anthropic' : 'google'
}

export function vertexModelPath(settings: ProviderSettings, model: string, method: string): string {
  const publisher = vertexPublisher(model)
  const id = model.replace(/^(publishers\/[a-z]+\/models\/|anthropic\/|google\/)/, '')
  // `claude-sonnet-4@20250514`: the version separator stays as Google's SDKs send it.
  const modelPath = `/publishers/${publisher}/models/${encodeURIComponent(id).replaceAll('%40', '@')}:${method}`
  if (isProjectScoped(settings.baseUrl)) return modelPath
  const project = settings.options?.project
  if (project === undefined || project === '')
    throw new GatewayError('upstream_error', `Vertex AI provider ${settings.slug}: set options.project`)
  const version = settings.options?.api_version ?? 'v1'
  const location = encodeURIComponent(vertexLocation(settings))
  return `/${version}/projects/${encodeURIComponent(project)}/locations/${location}${modelPath}`
}

/**
 * Why a Vertex provider's settings cannot form a URL, or null: without a project in `options.project`
 * or in a project-scoped base_url, every request would fail. Checked when the config loads.
 */
export function vertexSettingsProblem(
  baseUrl: string,
  options: Readonly<Record<string, string>> | undefined,
): string | null {
  if (isProjectScoped(baseUrl) || (options?.project ?? '') !== '') return null
  return 'a vertex provider needs options.project (or a base_url ending in /projects/{project}/locations/{location})'
}

function isProjectScoped(baseUrl: string): boolean {
  return /\/projects\/[^/]+\/locations\/[^/]+\/?$/.test(pathOf(baseUrl))
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return ''
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname
  } catch {
    return ''
  }
}
