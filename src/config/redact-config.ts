// A copy of the config safe to print or log: credentials and secrets replaced, URLs stripped of passwords.
import type { Config } from './config.ts'

// credentials_json: a Google service-account key inline (options.credentials_json, GOOGLE_APPLICATION_CREDENTIALS_JSON).
const secretKey = /(?:api_key|apikey|secret|password|token|master_key|admin_key|credentials_json|_KEY$)/i

export function redactConfig(config: Config): unknown {
  return redact(config, '')
}

function redact(value: unknown, key: string): unknown {
  if (typeof value === 'string') {
    if (secretKey.test(key)) return '[redacted]'
    return value.replace(/(\/\/[^:/@]+:)[^@/]*@/, '$1[redacted]@')
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, key))
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {}
    for (const [name, item] of Object.entries(value)) {
      result[name] =
        name === 'headers' && item !== null && typeof item === 'object'
          ? redactHeaders(item as Record<string, unknown>)
          : redact(item, name)
    }
    return result
  }
  return value
}

function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, '[redacted]']))
}
