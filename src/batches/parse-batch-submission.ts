// Reads a batch submission from the request stream and validates every line as it arrives, as the
// endpoint's own route would (api-reference §8.1): `endpoint` and `model` (and `callback_url`)
// must come before `requests`, custom ids are unique, a line's `model` equals the batch model, and
// each body decodes. The first bad line is reported as `requests[<i>]...`. Lines are kept as their
// JSON text only.
import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { GatewayError, isGatewayError } from '../domain/errors.ts'
import { batchEndpoints, isBatchEndpoint, type BatchEndpoint } from './batch-status.ts'
import { JsonMemberScanner } from './json-member-scanner.ts'
import { checkLine, endpointPipelines, type LinePipeline, type LinePipelineDeps } from './line-pipelines.ts'

export interface BatchLine {
  readonly customId: string
  /** The line body as JSON text, with the batch model filled in. */
  readonly body: string
}

export interface BatchProviderPreferences {
  readonly only?: readonly string[]
  readonly allow_fallbacks?: boolean
}

export interface BatchSubmission {
  readonly endpoint: BatchEndpoint
  readonly model: string
  readonly completionWindow: '24h'
  readonly provider: BatchProviderPreferences | null
  readonly callbackUrl: string | null
  readonly lines: readonly BatchLine[]
}

export interface ParseBatchOptions {
  readonly lines: LinePipelineDeps
  readonly maxBytes: number
  readonly maxLines: number
}

function invalid(message: string): GatewayError {
  return new GatewayError('invalid_request', message)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

class SubmissionBuilder {
  endpoint: BatchEndpoint | null = null
  model: string | null = null
  readonly completionWindow = '24h' as const
  provider: BatchProviderPreferences | null = null
  callbackUrl: string | null = null
  hasRequests = false
  readonly lines: BatchLine[] = []
  readonly #customIds = new Set<string>()
  #pipeline: LinePipeline | null = null

  constructor(readonly options: ParseBatchOptions) {}

  member(key: string, value: unknown): void {
    if (this.hasRequests && (key === 'endpoint' || key === 'model' || key === 'callback_url')) {
      throw invalid(`${key} must come before requests in the body: the server reads requests as they stream in`)
    }
    if (key === 'endpoint') this.#endpoint(value)
    else if (key === 'model') {
      if (typeof value !== 'string' || value.trim() === '')
        throw invalid('model: must be a non-empty string naming the model every line uses')
      this.model = value
    } else if (key === 'completion_window') {
      if (value !== '24h') throw invalid('completion_window: only "24h" is supported')
    } else if (key === 'provider') this.provider = parseProvider(value)
    else if (key === 'callback_url') this.callbackUrl = parseCallbackUrl(value)
    else if (key === 'requests') throw invalid('requests: must be an array of {custom_id, body}')
    else
      throw invalid(
        `${key}: unknown field; a batch takes endpoint, model, requests, completion_window, provider and callback_url`,
      )
  }

  #endpoint(value: unknown): void {
    if (!isBatchEndpoint(value)) throw invalid(`endpoint: must be one of ${batchEndpoints.join(', ')}`)
    this.endpoint = value
    this.#pipeline = endpointPipelines[value]
  }

  start(): void {
    this.hasRequests = true
    if (this.endpoint === null) throw invalid('endpoint is required and must come before requests')
    if (this.model === null) throw invalid('model is required and must come before requests')
  }

  line(value: unknown, index: number): void {
    if (index >= this.options.maxLines)
      throw invalid(`requests: a batch holds at most ${this.options.maxLines} requests; split it`)
    if (!isObject(value)) throw invalid(`requests[${index}]: must be an object {custom_id, body}`)
    const customId = value.custom_id
    if (typeof customId !== 'string' || customId === '') throw invalid(`custom_id is required on requests[${index}].`)
    if (customId.length > 512) throw invalid(`requests[${index}].custom_id: at most 512 characters`)
    if (this.#customIds.has(customId))
      throw invalid(
        `requests[${index}].custom_id: "${customId}" is used by an earlier request; custom ids must be unique in a batch`,
      )
    const body = value.body
    if (!isObject(body)) throw invalid(`body is required on requests[${index}].`)
    if (body.model !== undefined && body.model !== this.model)
      throw invalid(
        `requests[${index}].body.model: "${String(body.model)}" differs from the batch model "${this.model}"; omit it or use the batch model`,
      )
    if (body.stream === true) throw invalid(`requests[${index}].body.stream: batch requests cannot stream; omit stream`)
    const filled = { ...body, model: this.model }
    try {
      checkLine(this.#pipeline!, filled, this.options.lines)
    } catch (error) {
      if (isGatewayError(error)) throw invalid(`requests[${index}].body.${error.message}`)
      throw error
    }
    this.#customIds.add(customId)
    this.lines.push({ customId, body: JSON.stringify(filled) })
  }

  finish(): BatchSubmission {
    if (this.endpoint === null) throw invalid('endpoint is required')
    if (this.model === null) throw invalid('model is required')
    if (!this.hasRequests) throw invalid('requests is required: an array of {custom_id, body}')
    if (this.lines.length === 0) throw invalid('requests: must hold at least one request')
    return {
      endpoint: this.endpoint,
      model: this.model,
      completionWindow: this.completionWindow,
      provider: this.provider,
      callbackUrl: this.callbackUrl,
      lines: this.lines,
    }
  }
}

function parseProvider(value: unknown): BatchProviderPreferences | null {
  if (value === null) return null
  if (!isObject(value)) throw invalid('provider: must be an object with only and/or allow_fallbacks')
  const result: { only?: string[]; allow_fallbacks?: boolean } = {}
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'only') {
      if (!Array.isArray(entry) || !entry.every((slug) => typeof slug === 'string' && slug !== ''))
        throw invalid('provider.only: must be an array of provider slugs')
      result.only = entry as string[]
    } else if (key === 'allow_fallbacks') {
      if (typeof entry !== 'boolean') throw invalid('provider.allow_fallbacks: must be a boolean')
      result.allow_fallbacks = entry
    } else throw invalid(`provider.${key}: batches honour only provider.only and provider.allow_fallbacks`)
  }
  return result
}

function parseCallbackUrl(value: unknown): string | null {
  if (value === null) return null
  if (typeof value !== 'string') throw invalid('callback_url: must be an http(s) URL')
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw invalid(`callback_url: "${value}" is not a valid URL`)
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid('callback_url: must be an https URL')
  return value
}

/** Reads and validates the whole submission; throws GatewayError('invalid_request' | 'payload_too_large'). */
export async function parseBatchSubmission(stream: Readable, options: ParseBatchOptions): Promise<BatchSubmission> {
  const builder = new SubmissionBuilder(options)
  const scanner = new JsonMemberScanner('requests', {
    onMember: (key, value) => builder.member(key, value),
    onArrayStart: () => builder.start(),
    onElement: (value, index) => builder.line(value, index),
  })
  const decoder = new StringDecoder('utf8')
  let bytes = 0
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer
      bytes += buffer.length
      if (bytes > options.maxBytes)
        throw new GatewayError(
          'payload_too_large',
          `Request payload too large: a batch body may hold at most ${options.maxBytes} bytes (batches.max_body_bytes)`,
        )
      scanner.push(decoder.write(buffer))
    }
  } catch (error) {
    stream.resume()
    throw error
  }
  scanner.push(decoder.end())
  scanner.end()
  return builder.finish()
}
