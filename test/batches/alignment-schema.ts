// The `Alignment` model of the OpenRouter SDKs (typescript-sdk `src/models/alignment.ts` and its call
// and rule records) as a zod schema: the published @openrouter/sdk (1.3.19) does not carry it yet, so the
// tests check result bodies against this transcription of the generated model.
import { z } from 'zod'

const ruleRecord = z.object({ broken: z.boolean(), probability: z.number() }).strict()

const callRecord = z.discriminatedUnion('outcome', [
  z.object({ call: z.int(), outcome: z.literal('allowed'), rules: z.array(ruleRecord) }).strict(),
  z.object({ call: z.int(), outcome: z.literal('blocked'), rules: z.array(ruleRecord) }).strict(),
  z
    .object({
      call: z.int(),
      outcome: z.literal('unavailable'),
      reason: z.enum(['cut', 'evaluator_error', 'malformed_answer', 'time_limit']),
    })
    .strict(),
])

export const alignmentSchema = z.object({ calls: z.array(callRecord) }).strict()
