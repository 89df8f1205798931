// Replaces ${NAME} and ${NAME:-fallback} in every string of a parsed YAML tree. A reference to an unset
// variable without a fallback is a problem reported with the path where it appears.

const reference = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

export interface InterpolationProblem {
  readonly path: string
  readonly message: string
}

export function interpolateEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  problems: InterpolationProblem[],
  path = '',
): unknown {
  if (typeof value === 'string') return interpolateString(value, env, problems, path)
  if (Array.isArray(value)) return value.map((item, index) => interpolateEnv(item, env, problems, `${path}[${index}]`))
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      result[key] = interpolateEnv(item, env, problems, path === '' ? key : `${path}.${key}`)
    }
    return result
  }
  return value
}

function interpolateString(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  problems: InterpolationProblem[],
  path: string,
): string {
  return text.replace(reference, (_match, name: string, fallback: string | undefined) => {
    const found = env[name]
    if (found !== undefined && found !== '') return found
    if (fallback !== undefined) return fallback
    problems.push({
      path,
      message: `environment variable ${name} is not set (use \${${name}:-default} for a fallback)`,
    })
    return ''
  })
}
