// The flag and redact rules a call's input matched: counted (metrics) and logged once per request, by
// rule and count, never with the matched text. Shared by every entry point that runs content filters.
import type { ContentFilterFinding } from '../../guardrails/content-filter-engine.ts'
import type { InferenceDeps } from '../inference-deps.ts'

export function reportContentMatches(
  request: { readonly requestId: string; readonly generationId: string },
  findings: readonly ContentFilterFinding[],
  deps: Pick<InferenceDeps, 'logger' | 'onContentFilterMatches'>,
): void {
  if (findings.length === 0) return
  deps.onContentFilterMatches?.(findings)
  const matches = findings.map((finding) => ({
    guardrail_id: finding.guardrailId,
    guardrail: finding.guardrailName,
    rule: finding.rule,
    action: finding.action,
    message_index: finding.messageIndex,
    count: finding.matchCount,
  }))
  deps.logger.info(
    { reqId: request.requestId, generation_id: request.generationId, content_filter_matches: matches },
    'content filter matches',
  )
}
