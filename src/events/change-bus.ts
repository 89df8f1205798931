// Announces that a stored entity changed so in-memory caches can refresh it. In-process delivery is
// synchronous; a handler that refreshes asynchronously returns its work, and `applied()` waits for all
// of it (a management write answers once this instance's caches hold its change). With a cross-instance
// transport connected (Redis pub/sub or PostgreSQL NOTIFY, see open-change-transport.ts), every publish
// also goes to the other instances, whose buses deliver it to their own subscribers through `receive`.
import { InFlight } from './in-flight.ts'

export type ChangeTopic =
  | 'api_key'
  | 'workspace'
  | 'organization'
  | 'guardrail'
  | 'preset'
  | 'private_endpoint'
  | 'observability_destination'
  | 'rate_limit'
  /** An intern asked to be provisioned, suspended or deleted: the intern runtime acts on it now. */
  | 'intern'

/** Applies a change; asynchronous work is returned (and must not reject: the handler reports its own failures). */
export type ChangeHandler = (entityId: string) => void | Promise<void>

export class ChangeBus {
  readonly #handlers = new Map<ChangeTopic, Set<ChangeHandler>>()
  readonly #applying = new InFlight()
  #outbound: ((topic: ChangeTopic, entityId: string) => void) | null = null

  subscribe(topic: ChangeTopic, handler: ChangeHandler): () => void {
    const handlers = this.#handlers.get(topic) ?? new Set<ChangeHandler>()
    handlers.add(handler)
    this.#handlers.set(topic, handlers)
    return () => handlers.delete(handler)
  }

  publish(topic: ChangeTopic, entityId: string): void {
    this.receive(topic, entityId)
    this.#outbound?.(topic, entityId)
  }

  /** Delivers a change announced by another instance to this instance's subscribers only. */
  receive(topic: ChangeTopic, entityId: string): void {
    for (const handler of this.#handlers.get(topic) ?? []) {
      const work = handler(entityId)
      if (work !== undefined) void this.#applying.track(work)
    }
  }

  /** Resolves once the handlers' work for every change delivered so far on this instance has finished. */
  applied(): Promise<void> {
    return this.#applying.settled()
  }

  /** Sends every later publish to the other instances too (one transport at a time). */
  connect(send: (topic: ChangeTopic, entityId: string) => void): void {
    this.#outbound = send
  }
}
