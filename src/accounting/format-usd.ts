// Nano-dollars as a dollar string for messages: "$5.00", "$0.000001234". Exact (bigint), at least two
// decimals, no trailing zeros beyond them.
import { NANO_PER_USD } from '../domain/money.ts'

export function formatUsd(nano: bigint): string {
  const negative = nano < 0n
  const magnitude = negative ? -nano : nano
  const whole = magnitude / NANO_PER_USD
  const fraction = (magnitude % NANO_PER_USD).toString().padStart(9, '0').replace(/0+$/, '').padEnd(2, '0')
  return `${negative ? '-' : ''}$${whole}.${fraction}`
}
