// `model: "@preset/<slug>"`, `"<model>@preset/<slug>"` or a `preset` field: the workspace's preset's
// designated version is applied under the request's own fields (the request wins) before decoding.
import { GatewayError } from '../../domain/errors.ts'
import type { DialectName } from '../../dialects/dialect.ts'
import { applyPreset, parsePresetReference } from '../../presets/apply-preset.ts'
import type { PresetLookup } from '../call/call-policy.ts'
import type { PresetFormat } from '../../presets/preset-format.ts'

const formats: Readonly<Record<DialectName, PresetFormat>> = {
  'openai-responses': 'responses',
  'openai-chat': 'chat',
  'anthropic-messages': 'messages',
}

export interface ResolvedPreset {
  readonly body: unknown
  /** The preset slug applied, or null when the request named none. */
  readonly slug: string | null
}

export function resolvePreset(
  body: unknown,
  dialect: DialectName,
  workspaceId: string,
  lookup: PresetLookup,
): ResolvedPreset {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { body, slug: null }
  const request = body as Record<string, unknown>
  const model = typeof request.model === 'string' ? request.model : ''
  const field = typeof request.preset === 'string' ? request.preset : undefined
  const reference = parsePresetReference(model, field)
  if (reference === null) return { body, slug: null }
  const preset = lookup(workspaceId, reference.slug)
  if (preset === undefined)
    throw new GatewayError(
      'not_found',
      `Preset "${reference.slug}" does not exist in this workspace (or is not active)`,
    )
  const { model: _model, preset: _preset, ...rest } = request
  const stripped = reference.model === null ? rest : { ...rest, model: reference.model }
  return {
    body: applyPreset(preset.config, preset.systemPrompt, stripped as never, formats[dialect]),
    slug: reference.slug,
  }
}
