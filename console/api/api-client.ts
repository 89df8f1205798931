// The console's only way to the gateway: the public /api/v1 routes with the signed-in key as a bearer
// token (never in a URL). Errors come back as ApiError with the message of the API's error envelope.
import { ApiError } from './api-error.ts'

export type Query = Readonly<Record<string, string | number | boolean | undefined | null>>

export class ApiClient {
  constructor(private readonly key: string) {}

  get<T>(path: string, query: Query = {}): Promise<T> {
    return this.call<T>('GET', withQuery(path, query))
  }

  send<T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return this.call<T>(method, path, body)
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let response: Response
    try {
      response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
      })
    } catch (error) {
      throw new ApiError(0, `The gateway did not answer (${error instanceof Error ? error.message : String(error)})`)
    }
    const text = await response.text()
    const parsed: unknown = text === '' ? null : parseJson(text)
    if (!response.ok) throw new ApiError(response.status, errorMessage(parsed) ?? (text || response.statusText))
    return parsed as T
  }
}

export function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value))
  }
  const encoded = params.toString()
  return encoded === '' ? path : `${path}?${encoded}`
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function errorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined
  const error = body.error
  if (typeof error !== 'object' || error === null || !('message' in error)) return undefined
  return typeof error.message === 'string' ? error.message : undefined
}
