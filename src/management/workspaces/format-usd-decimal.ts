// USD amounts arrive as JSON numbers and are stored as decimal strings (never in exponent notation).

export function formatUsdDecimal(amount: number): string {
  const plain = String(amount)
  if (!/e/i.test(plain)) return plain
  return amount.toFixed(20).replace(/\.?0+$/, '')
}
