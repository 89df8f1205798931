// How numbers, money and times read in the console.
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  if (value !== 0 && Math.abs(value) < 0.01) return `$${value.toFixed(6)}`
  return `$${value.toFixed(2)}`
}

export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toLocaleString('en-US')
}

export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`
}

export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : `${(value * 100).toFixed(1)}%`
}

export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').slice(0, 19)
}
