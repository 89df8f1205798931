// Which credential a route takes. Every route declares one in its `config.auth`.
import type { ApiKeyRecord } from '../domain/identity.ts'

export type RouteAuth =
  /** No key needed (health, docs, the deprecated payments route). */
  | 'none'
  /** Management keys only; other keys get 403. */
  | 'management'
  /** Inference and intern keys; management keys get 403. */
  | 'inference'
  /** Any valid key (GET /key, the catalog, generations). */
  | 'any'
  /** Management and inference keys; an intern's own key is confined to its intern and gets 404 (presets). */
  | 'unconfined'
  /** Inference and intern keys, not management keys (vault and intern routes), refused with 401. */
  | 'workspace'

export interface Principal {
  readonly key: ApiKeyRecord
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth
  }
  interface FastifyRequest {
    principal: Principal | null
  }
}
