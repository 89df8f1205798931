// How a generation ended, from the fields of the generation object: cancelled by the client, failed
// (no attempt answered 2xx), or the finish reason of a success.
import type { Generation } from '../api/types.ts'

export type Outcome = { readonly kind: 'success' | 'error' | 'cancelled'; readonly text: string }

export function generationOutcome(generation: Generation): Outcome {
  if (generation.cancelled) return { kind: 'cancelled', text: 'cancelled' }
  const answered = generation.provider_responses.some(
    (attempt) => attempt.status !== null && attempt.status >= 200 && attempt.status < 300,
  )
  if (!answered && generation.finish_reason === null) return { kind: 'error', text: 'error' }
  return { kind: 'success', text: generation.finish_reason ?? 'ok' }
}
