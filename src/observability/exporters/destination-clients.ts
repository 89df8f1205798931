// One long-lived client per destination (an OTLP exporter, an S3 client), so delivery reuses its
// keep-alive connections instead of opening one per record. A client is rebuilt when the settings it
// was built from change, closed when its destination is released (changed or deleted), and every
// client is closed when the delivery worker stops.
export class DestinationClients<Client> {
  readonly #byDestination = new Map<string, { readonly settings: string; readonly client: Client }>()

  constructor(private readonly closeClient: (client: Client) => Promise<void>) {}

  /** The destination's client built from `settings` (any string that changes when they do). */
  get(destinationId: string, settings: string, build: () => Client): Client {
    const held = this.#byDestination.get(destinationId)
    if (held !== undefined && held.settings === settings) return held.client
    if (held !== undefined) void this.#close(held.client)
    const client = build()
    this.#byDestination.set(destinationId, { settings, client })
    return client
  }

  async release(destinationId: string): Promise<void> {
    const held = this.#byDestination.get(destinationId)
    if (held === undefined) return
    this.#byDestination.delete(destinationId)
    await this.#close(held.client)
  }

  async closeAll(): Promise<void> {
    const held = [...this.#byDestination.values()]
    this.#byDestination.clear()
    await Promise.all(held.map((entry) => this.#close(entry.client)))
  }

  get size(): number {
    return this.#byDestination.size
  }

  async #close(client: Client): Promise<void> {
    await this.closeClient(client).catch(() => undefined)
  }
}
