// TypeBox stops collecting validation errors at a global 8, which one union's branches can use up before
// the next field is reached. This walks with the bound raised (still bounded, so a huge invalid input
// stays cheap) and restores it; the walk is synchronous, so nothing else sees the raised bound.
import { Settings } from 'typebox/system'

const maxErrors = 256

export function collectAllErrors<T>(errors: () => Iterable<T>): T[] {
  const previous = Settings.Get().maxErrors
  Settings.Set({ maxErrors: Math.max(previous, maxErrors) })
  try {
    return [...errors()]
  } finally {
    Settings.Set({ maxErrors: previous })
  }
}
