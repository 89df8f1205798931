// Preset slugs: lowercase ASCII letters and digits in groups joined by single hyphens, 1 to 64
// characters ("my-preset-2"). They appear in model ids (`@preset/<slug>`), so nothing else is allowed.
export const presetSlugMaxLength = 64
export const presetSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

export function isPresetSlug(value: string): boolean {
  return value.length <= presetSlugMaxLength && presetSlugPattern.test(value)
}

export const presetSlugRule = `a preset slug is 1 to ${presetSlugMaxLength} lowercase letters, digits and single inner hyphens (e.g. "support-bot-2")`
