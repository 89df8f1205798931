// Applies the effective content filters to the text of a request. Block rules are checked first (the
// first match refuses the request with 403 naming the guardrail and the rule, never the matched text);
// flag rules are recorded; redact rules then replace each match with the rule's label, in rule order.
import { GatewayError } from '../domain/errors.ts'
import { detectBuiltin, type TextSpan } from './builtin-detectors.ts'
import {
  builtinLabels,
  defaultPatternLabel,
  type ContentFilterAction,
  type ScanScope,
} from '../domain/guardrail-record.ts'
import type { EffectiveContentFilter } from './effective-rules.ts'

export interface ScanMessage {
  /** Chat role of the message (user, system, assistant, tool...). */
  readonly role: string
  readonly text: string
}

export interface ContentFilterFinding {
  readonly guardrailId: string
  readonly guardrailName: string
  /** The builtin slug, or `pattern:<source>` for a custom pattern. */
  readonly rule: string
  readonly action: ContentFilterAction
  readonly messageIndex: number
  readonly matchCount: number
}

export interface ContentFilterOutcome {
  /** The messages after redaction (same order and roles). */
  readonly messages: ScanMessage[]
  /** Every rule that matched (flag and redact); a block throws instead. */
  readonly findings: ContentFilterFinding[]
}

interface CompiledRule {
  readonly guardrailId: string
  readonly guardrailName: string
  readonly rule: string
  readonly action: ContentFilterAction
  readonly label: string
  readonly scanScope: ScanScope
  readonly find: (text: string) => TextSpan[]
}

export class ContentFilterEngine {
  readonly #rules: readonly CompiledRule[]

  constructor(filters: readonly EffectiveContentFilter[]) {
    this.#rules = filters.map(compileRule)
  }

  get isEmpty(): boolean {
    return this.#rules.length === 0
  }

  apply(messages: readonly ScanMessage[]): ContentFilterOutcome {
    for (const rule of this.#rules.filter((candidate) => candidate.action === 'block')) {
      messages.forEach((message, index) => {
        if (isInScope(rule, message) && rule.find(message.text).length > 0) throw blockedError(rule, index)
      })
    }
    const findings: ContentFilterFinding[] = []
    const output = messages.map((message) => ({ role: message.role, text: message.text }))
    for (const rule of this.#rules.filter((candidate) => candidate.action !== 'block')) {
      output.forEach((message, index) => {
        if (!isInScope(rule, message)) return
        const spans = rule.find(message.text)
        if (spans.length === 0) return
        findings.push({
          guardrailId: rule.guardrailId,
          guardrailName: rule.guardrailName,
          rule: rule.rule,
          action: rule.action,
          messageIndex: index,
          matchCount: spans.length,
        })
        if (rule.action === 'redact') message.text = replaceSpans(message.text, spans, rule.label)
      })
    }
    return { messages: output, findings }
  }
}

function compileRule(filter: EffectiveContentFilter): CompiledRule {
  const base = { guardrailId: filter.guardrailId, guardrailName: filter.guardrailName, action: filter.action }
  if (filter.kind === 'builtin') {
    const slug = filter.slug
    return {
      ...base,
      rule: slug,
      label: builtinLabels[slug],
      scanScope: filter.scanScope,
      find: (text) => detectBuiltin(slug, text),
    }
  }
  const compiled = filter.compiled
  if ('error' in compiled)
    throw new GatewayError(
      'internal',
      `Guardrail ${filter.guardrailId} holds a pattern the gateway cannot run (${compiled.error}); an administrator must replace it with PATCH /api/v1/guardrails/${filter.guardrailId}`,
    )
  return {
    ...base,
    rule: `pattern:${filter.pattern}`,
    label: filter.label ?? defaultPatternLabel,
    scanScope: 'all_messages',
    find: (text) => compiled.pattern.findSpans(text),
  }
}

function isInScope(rule: CompiledRule, message: ScanMessage): boolean {
  return rule.scanScope === 'all_messages' || message.role === 'user'
}

function replaceSpans(text: string, spans: readonly TextSpan[], label: string): string {
  let result = ''
  let position = 0
  for (const span of spans) {
    if (span.start < position) continue
    result += text.slice(position, span.start) + label
    position = span.end
  }
  return result + text.slice(position)
}

function blockedError(rule: CompiledRule, messageIndex: number): GatewayError {
  return new GatewayError(
    'forbidden',
    `Request blocked by guardrail "${rule.guardrailName}" (${rule.guardrailId}): content filter ${rule.rule} matched message ${messageIndex}. Remove that content or ask an administrator to change the guardrail.`,
    {
      metadata: {
        reason: 'guardrail_blocked',
        guardrail_id: rule.guardrailId,
        guardrail_name: rule.guardrailName,
        rule: rule.rule,
      },
    },
  )
}
