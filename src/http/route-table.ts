// Every registered route's method and path pattern, so an unmatched request can be told apart as
// "unknown path" (404) or "wrong method" (405 with Allow), and so the OpenAPI test can list routes.
import type { RouteOptions } from 'fastify'

interface Entry {
  readonly method: string
  readonly url: string
  readonly pattern: RegExp
  readonly hidden: boolean
}

export class RouteTable {
  readonly #entries: Entry[] = []

  add(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue
      this.#entries.push({ method, url: route.url, pattern: toPattern(route.url), hidden })
    }
  }

  methodsFor(path: string): string[] {
    return [...new Set(this.#entries.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method))].sort()
  }

  /** Routes meant to be documented: method + fastify URL pattern. */
  documented(): { method: string; url: string }[] {
    return this.#entries.filter((entry) => !entry.hidden).map(({ method, url }) => ({ method, url }))
  }
}

function toPattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*'
      if (segment.startsWith(':')) return '[^/]+'
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return new RegExp(`^${source}/?$`)
}
