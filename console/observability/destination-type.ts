// A destination type as GET /api/v1/observability/destination-types describes it: its `config` fields
// with the rules the API checks them by, and whether this gateway delivers it (only those can be created).
export interface ConfigField {
  readonly name: string
  readonly required: boolean
  /** Typed as a password; masked by the API in its answers. */
  readonly secret: boolean
  readonly url: boolean
  /** What an empty input means. */
  readonly default: string | null
  /** The closed choices, when there are. */
  readonly values: readonly string[] | null
}

export interface DestinationType {
  readonly type: string
  readonly deliverable: boolean
  readonly config: readonly ConfigField[]
}
