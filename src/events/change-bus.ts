// Announces that a stored entity changed so in-memory caches can refresh it. In-process delivery is
// synchronous; a cross-instance transport (Redis pub/sub or PostgreSQL NOTIFY) can be attached later.

export type ChangeTopic = 'api_key' | 'workspace' | 'organization' | 'guardrail' | 'preset' | 'private_endpoint' | 'observability_destination'

export type ChangeHandler = (entityId: string) => void

export class ChangeBus {
  readonly #handlers = new Map<ChangeTopic, Set<ChangeHandler>>()

  subscribe(topic: ChangeTopic, handler: ChangeHandler): () => void {
    const handlers = this.#handlers.get(topic) ?? new Set<ChangeHandler>()
    handlers.add(handler)
    this.#handlers.set(topic, handlers)
    return () => handlers.delete(handler)
  }

  publish(topic: ChangeTopic, entityId: string): void {
    for (const handler of this.#handlers.get(topic) ?? []) handler(entityId)
  }
}
