import type { Generation } from '../api/types.ts'
import { generationOutcome } from './generation-outcome.ts'

export function OutcomeBadge({ generation }: { generation: Generation }) {
  const outcome = generationOutcome(generation)
  return <span class={`badge ${outcome.kind === 'success' ? 'on' : 'off'}`}>{outcome.text}</span>
}
