// Validates a destination's `config` against its type's field table, naming EVERY problem, and applies
// the defaults. Also masks secrets for responses and merges a PATCH's config over the stored one
// (a masked value sent back keeps the stored secret).
import { egressProblem, type EgressPolicy } from '../http/egress-policy.ts'
import { configFields, type DestinationConfig, type DestinationType } from './destination-types.ts'

/** Secrets come back as this prefix, plus the last 4 characters when the secret has 12 or more. */
export const secretMask = '********'

export interface ConfigValidation {
  readonly config: DestinationConfig
  readonly problems: readonly string[]
}

export function validateDestinationConfig(
  type: DestinationType,
  input: unknown,
  policy: EgressPolicy,
): ConfigValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { config: {}, problems: ['config must be an object'] }
  const given = input as Record<string, unknown>
  const fields = configFields[type]
  const problems: string[] = []
  const config: Record<string, string | Record<string, string>> = {}
  for (const key of Object.keys(given)) {
    if (key !== 'headers' && !Object.hasOwn(fields, key))
      problems.push(
        `config.${key} is not a field of ${type} destinations (fields: ${Object.keys(fields).join(', ')}, headers)`,
      )
  }
  for (const [name, field] of Object.entries(fields)) {
    const value = given[name]
    if (value === undefined || value === null) {
      if (field.required) problems.push(`config.${name} is required for ${type} destinations`)
      else if (field.default !== undefined) config[name] = field.default
      continue
    }
    if (typeof value !== 'string' || value.length === 0) {
      problems.push(`config.${name} must be a non-empty string`)
      continue
    }
    if (field.values !== undefined && !field.values.includes(value))
      problems.push(`config.${name} must be one of ${field.values.join(', ')}`)
    if (field.url === true) {
      const problem = egressProblem(value, policy)
      if (problem !== null) problems.push(`config.${name}: ${problem}`)
    }
    config[name] = value
  }
  const headers = validateHeaders(given.headers, problems)
  if (headers !== undefined) config.headers = headers
  return { config, problems }
}

function validateHeaders(value: unknown, problems: string[]): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push('config.headers must be an object of string values')
    return undefined
  }
  const headers: Record<string, string> = {}
  for (const [name, headerValue] of Object.entries(value as Record<string, unknown>)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      problems.push(`config.headers: "${name}" is not a valid header name`)
    else if (typeof headerValue !== 'string') problems.push(`config.headers.${name} must be a string`)
    else headers[name] = headerValue
  }
  return headers
}

export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(secretMask)
}

export function maskSecret(value: string): string {
  return value.length >= 12 ? `${secretMask}${value.slice(-4)}` : secretMask
}

/** The config as responses show it: secret fields and every header value masked. */
export function maskConfig(type: DestinationType, config: DestinationConfig): DestinationConfig {
  const fields = configFields[type]
  const masked: Record<string, string | Record<string, string>> = {}
  for (const [name, value] of Object.entries(config)) {
    if (value === undefined) continue
    if (name === 'headers' && typeof value === 'object')
      masked.headers = Object.fromEntries(
        Object.entries(value).map(([header, headerValue]) => [header, maskSecret(headerValue)]),
      )
    else if (typeof value === 'string') masked[name] = fields[name]?.secret === true ? maskSecret(value) : value
  }
  return masked
}

/**
 * A PATCH's config: keys not given keep their stored value; masked values (secrets or header values)
 * keep the stored one. The result is validated like a create.
 */
export function mergeConfigPatch(stored: DestinationConfig, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch
  const merged: Record<string, unknown> = { ...stored }
  for (const [name, value] of Object.entries(patch as Record<string, unknown>)) {
    if (name === 'headers' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const storedHeaders = stored.headers ?? {}
      merged.headers = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([header, headerValue]) => [
          header,
          isMasked(headerValue) ? (storedHeaders[header] ?? headerValue) : headerValue,
        ]),
      )
    } else if (!isMasked(value) || stored[name] === undefined) {
      merged[name] = value
    }
  }
  return merged
}
