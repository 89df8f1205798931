// Which preset an inference request names: `model: "@preset/<slug>"`, `model: "<model>@preset/<slug>"`
// or a `preset: "<slug>"` field next to any model. Pure; throws 400 on a malformed or contradictory
// reference so the caller can answer before routing.
import { GatewayError } from '../domain/errors.ts'
import { isPresetSlug, presetSlugRule } from './preset-slug.ts'

export const presetMarker = '@preset/'

export interface PresetReference {
  readonly slug: string
  /** The model named beside the preset, or null when the preset's own model applies. */
  readonly model: string | null
}

function requireSlug(slug: string, where: string): string {
  if (!isPresetSlug(slug))
    throw new GatewayError(
      'invalid_request',
      `Invalid preset reference in ${where}: "${slug}" is not a preset slug; ${presetSlugRule}`,
    )
  return slug
}

/** Splits `<model>@preset/<slug>` into its parts; `slug` is undefined when the model names no preset. */
export function splitPresetModel(model: string): { model: string | null; slug: string | undefined } {
  const at = model.indexOf(presetMarker)
  if (at < 0) return { model: model === '' ? null : model, slug: undefined }
  return { model: at === 0 ? null : model.slice(0, at), slug: model.slice(at + presetMarker.length) }
}

export function parsePresetReference(model: string, presetField?: string): PresetReference | null {
  const split = splitPresetModel(model)
  const fromModel = split.slug === undefined ? undefined : requireSlug(split.slug, '`model`')
  const fromField =
    presetField === undefined
      ? undefined
      : requireSlug(
          presetField.startsWith(presetMarker) ? presetField.slice(presetMarker.length) : presetField,
          '`preset`',
        )
  if (fromModel !== undefined && fromField !== undefined && fromModel !== fromField) {
    throw new GatewayError(
      'invalid_request',
      `The request names two presets: "${fromModel}" in \`model\` and "${fromField}" in \`preset\`; name one`,
    )
  }
  const slug = fromModel ?? fromField
  return slug === undefined ? null : { slug, model: split.model }
}
