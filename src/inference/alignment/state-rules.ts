// `instruct: true`: the rules are stated to the model before the request's own instructions, in each
// dialect's system slot (a Chat Completions system message, the Messages `system`, the Responses
// `instructions`).
import type { DialectName } from '../../dialects/dialect.ts'

export function rulesInstruction(rules: readonly string[]): string {
  return `Follow these rules in every reply:\n${rules.map((rule, index) => `${index + 1}. ${rule}`).join('\n')}`
}

type Body = Readonly<Record<string, unknown>>

const byDialect: Readonly<Record<DialectName, (body: Body, instruction: string) => Body>> = {
  'openai-chat': (body, instruction) => ({
    ...body,
    messages: [{ role: 'system', content: instruction }, ...(Array.isArray(body.messages) ? body.messages : [])],
  }),
  'anthropic-messages': (body, instruction) => {
    const { system } = body
    if (Array.isArray(system)) return { ...body, system: [{ type: 'text', text: instruction }, ...system] }
    return {
      ...body,
      system: typeof system === 'string' && system !== '' ? `${instruction}\n\n${system}` : instruction,
    }
  },
  'openai-responses': (body, instruction) => {
    const { instructions } = body
    return {
      ...body,
      instructions:
        typeof instructions === 'string' && instructions !== '' ? `${instruction}\n\n${instructions}` : instruction,
    }
  },
}

export function stateRules(dialect: DialectName, body: Body, rules: readonly string[]): Body {
  return byDialect[dialect](body, rulesInstruction(rules))
}
