// The key's content filters on an embeddings request, as on a chat request: each text input (and each
// text part of a multimodal input) is scanned as a user message, in order; a block rule refuses with 403,
// redaction happens before any upstream sees the text. Token arrays carry no text to scan.
import type { EmbeddingInput, EmbeddingPart } from '../../domain/inference/embeddings.ts'
import {
  ContentFilterEngine,
  type ContentFilterFinding,
  type ScanMessage,
} from '../../guardrails/content-filter-engine.ts'
import type { EffectiveRules } from '../../guardrails/effective-rules.ts'

export function filterEmbeddingInputs(
  inputs: readonly EmbeddingInput[],
  rules: EffectiveRules,
): { inputs: readonly EmbeddingInput[]; findings: readonly ContentFilterFinding[] } {
  if (rules.contentFilters.length === 0) return { inputs, findings: [] }
  const scan: ScanMessage[] = []
  for (const input of inputs) {
    if (input.type === 'text') scan.push({ role: 'user', text: input.text })
    if (input.type === 'parts')
      for (const part of input.parts) if (part.type === 'text') scan.push({ role: 'user', text: part.text })
  }
  const outcome = new ContentFilterEngine(rules.contentFilters).apply(scan)
  const texts = outcome.messages.map((message) => message.text).values()
  const nextText = (): string => texts.next().value ?? ''
  const filtered = inputs.map((input): EmbeddingInput => {
    if (input.type === 'text') return { type: 'text', text: nextText() }
    if (input.type === 'tokens') return input
    return {
      type: 'parts',
      parts: input.parts.map((part): EmbeddingPart =>
        part.type === 'text' ? { type: 'text', text: nextText() } : part,
      ),
    }
  })
  return { inputs: filtered, findings: outcome.findings }
}
