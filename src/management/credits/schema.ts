import { Type, type Static } from 'typebox'

export const Credits = Type.Object({
  total_credits: Type.Number({ description: 'USD granted, all time' }),
  total_usage: Type.Number({ description: 'USD spent (non-BYOK), all time' }),
})

export const CreditGrantBody = Type.Object(
  {
    amount: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000_000, description: 'USD to add to the balance' }),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)

export type Credits = Static<typeof Credits>
export type CreditGrantBody = Static<typeof CreditGrantBody>
