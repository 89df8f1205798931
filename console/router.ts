// Hash routing (#/keys, #/generations/gen-1?model=x): the server serves one page, and a route's state
// (filters, the open record) survives a reload and can be shared without carrying the key.
import { useEffect, useState } from 'preact/hooks'

export interface Route {
  /** The path segments after `#/`, e.g. ['generations', 'gen-1']. */
  readonly segments: readonly string[]
  readonly params: URLSearchParams
}

export function readRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2)
  return {
    segments: path
      .split('/')
      .filter((part) => part !== '')
      .map(decodeURIComponent),
    params: new URLSearchParams(query),
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => readRoute(location.hash))
  useEffect(() => {
    const onChange = () => setRoute(readRoute(location.hash))
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [])
  return route
}

export function href(segments: readonly string[], params: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== '')).toString()
  return `#/${segments.map(encodeURIComponent).join('/')}${query === '' ? '' : `?${query}`}`
}

export function navigate(segments: readonly string[], params: Readonly<Record<string, string>> = {}): void {
  location.hash = href(segments, params)
}
