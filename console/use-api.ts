// Loads something from the API for a page: the data, the API's error message, and reload().
import { useCallback, useEffect, useState } from 'preact/hooks'
import { describeError } from './api/api-error.ts'

export interface Loaded<T> {
  readonly data: T | undefined
  readonly error: string | null
  readonly loading: boolean
  reload(): void
}

export function useApi<T>(load: () => Promise<T>, inputs: readonly unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [round, setRound] = useState(0)
  useEffect(() => {
    let current = true
    setLoading(true)
    load().then(
      (value) => {
        if (!current) return
        setData(value)
        setError(null)
        setLoading(false)
      },
      (failure: unknown) => {
        if (!current) return
        setError(describeError(failure))
        setLoading(false)
      },
    )
    return () => {
      current = false
    }
  }, [...inputs, round])
  const reload = useCallback(() => setRound((value) => value + 1), [])
  return { data, error, loading, reload }
}
