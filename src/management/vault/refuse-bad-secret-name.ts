// Secret names are refused before schema validation with a message that says the rule in words and
// suggests a name that follows it (`GITHUB_TOKEN` -> `github_token`), instead of printing the regex.
// The schema (schema.ts) still carries the same pattern, for the OpenAPI document and as a backstop.
import type { FastifyRequest } from 'fastify'
import { GatewayError } from '../../domain/errors.ts'
import { secretNamePattern } from './schema.ts'

const maxNameLength = 255
const allowed = new RegExp(secretNamePattern)
const rule =
  'a secret name is 1 to 255 characters of lowercase letters, digits and single underscores, ' +
  'starting with a letter and not ending with an underscore'

/** A preValidation hook: refuses the path's `name` and the copy body's `names` that break the rule. */
export async function refuseBadSecretName(request: FastifyRequest): Promise<void> {
  for (const name of namesIn(request.params, 'name')) refuse(name, 'Secret name')
  for (const name of namesIn(request.body, 'names')) refuse(name, 'names: secret name')
}

function refuse(name: string, label: string): void {
  if (name.length <= maxNameLength && allowed.test(name)) return
  const suggestion = suggestedName(name.slice(0, 2 * maxNameLength))
  const fix = suggestion === null ? 'choose a name that follows it' : `use "${suggestion}"`
  const shown = name.length > maxNameLength ? `of ${name.length} characters` : JSON.stringify(name)
  throw new GatewayError('invalid_request', `${label} ${shown} is not allowed: ${rule}; ${fix}`)
}

/** Lowercased, other characters turned into single underscores, trimmed to start with a letter; null when nothing is left. */
function suggestedName(name: string): string | null {
  const candidate = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .slice(0, maxNameLength)
    .replace(/_+$/, '')
  return candidate !== '' && allowed.test(candidate) ? candidate : null
}

/** The strings under `key`, read as whatever arrived (the hook runs before validation). */
function namesIn(value: unknown, key: string): string[] {
  if (typeof value !== 'object' || value === null || !(key in value)) return []
  const found: unknown = Reflect.get(value, key)
  const list = Array.isArray(found) ? found : [found]
  return list.filter((item): item is string => typeof item === 'string')
}
