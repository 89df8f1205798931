// The alignment plugin's settings as a request sends them in `plugins` (OpenRouter's `AlignmentPlugin`:
// `{id: "alignment", rules, mode?, threshold?, instruct?, max_retries?}`), checked so a bad value is a
// 400 naming its field. A request without the plugin, or with an empty `rules`, has no rule to apply.
import { GatewayError } from '../../domain/errors.ts'

export type AlignmentMode = 'enforce' | 'audit'

export interface AlignmentSettings {
  /** Texts that state what the reply must or must not do; each is evaluated on its own. */
  readonly rules: readonly string[]
  readonly mode: AlignmentMode
  /** Probability at or above which a rule is broken. */
  readonly threshold: number
  /** Whether the rules are stated to the model in a system message. */
  readonly instruct: boolean
  /** Model calls made again after a blocked message, in enforce mode. */
  readonly maxRetries: number
}

export const alignmentPluginId = 'alignment'
export const maxRules = 32
export const maxRuleChars = 2000
export const maxRetriesLimit = 5
const defaults = { mode: 'enforce', threshold: 0.7, instruct: true, maxRetries: 1 } as const
const modes: readonly AlignmentMode[] = ['enforce', 'audit']
const known = new Set(['id', 'rules', 'mode', 'threshold', 'instruct', 'max_retries'])

function invalid(field: string, message: string): GatewayError {
  return new GatewayError('invalid_request', `${field}: ${message}`)
}

/** The settings of the body's alignment plugin, or null when it names none. */
export function alignmentSettingsOf(body: unknown): AlignmentSettings | null {
  if (typeof body !== 'object' || body === null || !('plugins' in body) || !Array.isArray(body.plugins)) return null
  const plugins: unknown[] = body.plugins
  const index = plugins.findIndex(
    (plugin) => typeof plugin === 'object' && plugin !== null && (plugin as { id?: unknown }).id === alignmentPluginId,
  )
  if (index === -1) return null
  return decodeSettings(plugins[index] as Record<string, unknown>, `plugins[${index}]`)
}

function decodeSettings(plugin: Record<string, unknown>, at: string): AlignmentSettings {
  const unknownField = Object.keys(plugin).find((name) => !known.has(name))
  if (unknownField !== undefined)
    throw invalid(`${at}.${unknownField}`, 'unknown alignment setting (rules, mode, threshold, instruct, max_retries)')
  return {
    rules: decodeRules(plugin.rules, `${at}.rules`),
    mode: decodeMode(plugin.mode, `${at}.mode`),
    threshold: decodeThreshold(plugin.threshold, `${at}.threshold`),
    instruct: decodeInstruct(plugin.instruct, `${at}.instruct`),
    maxRetries: decodeMaxRetries(plugin.max_retries, `${at}.max_retries`),
  }
}

function decodeRules(value: unknown, at: string): readonly string[] {
  if (!Array.isArray(value)) throw invalid(at, 'is required: an array of rule texts')
  if (value.length > maxRules) throw invalid(at, `must not have more than ${maxRules} items`)
  return value.map((rule: unknown, position) => {
    if (typeof rule !== 'string' || rule.trim() === '')
      throw invalid(`${at}[${position}]`, 'must be a non-empty string')
    if (rule.length > maxRuleChars) throw invalid(`${at}[${position}]`, `must be at most ${maxRuleChars} characters`)
    return rule
  })
}

function decodeMode(value: unknown, at: string): AlignmentMode {
  if (value === undefined || value === null) return defaults.mode
  if (!modes.includes(value as AlignmentMode)) throw invalid(at, 'must be "enforce" or "audit"')
  return value as AlignmentMode
}

function decodeThreshold(value: unknown, at: string): number {
  if (value === undefined || value === null) return defaults.threshold
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1)
    throw invalid(at, 'must be a number greater than 0 and at most 1')
  return value
}

function decodeInstruct(value: unknown, at: string): boolean {
  if (value === undefined || value === null) return defaults.instruct
  if (typeof value !== 'boolean') throw invalid(at, 'must be a boolean')
  return value
}

function decodeMaxRetries(value: unknown, at: string): number {
  if (value === undefined || value === null) return defaults.maxRetries
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > maxRetriesLimit)
    throw invalid(at, `must be an integer from 0 to ${maxRetriesLimit}`)
  return value
}
