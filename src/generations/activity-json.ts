// The USD amounts of activity items built as JSON by the database (read-daily-activity.ts): the database
// writes each amount as its integer nano-dollars, and this puts in the USD number as JavaScript writes it
// (`String(nanoToUsd(nano))`, the text a JSON serializer gives), e.g. 1250000 -> 0.00125, 100 -> 1e-7.
// A database's own float output differs from JavaScript's (exponents, digits), hence the one pass here.
import { nanoToUsd } from '../domain/money.ts'

/** Below 1e15 a nano amount is an exact double, and dividing by 1e9 rounds the quotient once, as parsing it would. */
const maxExactDigits = 15

/** The USD number, as JSON text, of an integer nano-dollar amount written in decimal. */
export function usdText(nano: string): string {
  const digits = nano.startsWith('-') ? nano.length - 1 : nano.length
  return digits <= maxExactDigits ? String(Number(nano) / 1e9) : String(nanoToUsd(BigInt(nano)))
}

// A quote inside a JSON string is escaped (\"), so `,"usage":` matches only the key itself, once per item.
const amounts = /,"usage":(-?\d+),"byok_usage_inference":(-?\d+),/g

/**
 * Items' JSON text with each `usage` and `byok_usage_inference` turned from nano-dollars into USD; throws
 * unless all `count` items had integer amounts (a sum the database wrote otherwise would pass unconverted).
 */
export function usdAmounts(items: string, count: number): string {
  let converted = 0
  const text = items.replace(amounts, (_, usage: string, byok: string) => {
    converted++
    return `,"usage":${usdText(usage)},"byok_usage_inference":${usdText(byok)},`
  })
  if (converted !== count)
    throw new Error(`activity: ${count} items but ${converted} integer USD amounts in the database's JSON`)
  return text
}
