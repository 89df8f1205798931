// Catalog prices are USD per token as decimal strings; people read them per million tokens.
export function perMillion(price: string): string {
  const value = Number(price)
  if (!Number.isFinite(value)) return price
  return `$${(value * 1_000_000).toFixed(value * 1_000_000 < 1 ? 4 : 2)}`
}
