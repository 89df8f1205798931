// A server tool: a function the gateway runs itself when the model calls it. The loop exposes each tool
// to the model as a function tool named `openrouter_<tool>`, runs it, and reports it to the client as
// an output item typed `openrouter:<tool>`.
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ServerToolsSetting } from '../../config/server-tools-config.ts'
import type { EgressPolicy } from '../../http/egress-policy.ts'
import type { Catalog } from '../../domain/catalog.ts'
import type { InvokeInput, InvokeResult } from '../call/invoke-port.ts'

export interface ServerToolRun {
  /** What the model reads as the function result. */
  readonly output: string
  /** The output item's own fields; the loop adds `type`, `id` and `status`. */
  readonly item: Readonly<Record<string, unknown>>
  /** Cost of nested model calls the tool made (already billed to the key as their own generations). */
  readonly nestedCostNano?: bigint
  readonly webSearchRequests?: number
}

export interface ServerToolContext {
  readonly clock: Clock
  readonly key: ApiKeyRecord
  /** The model the client asked for; nested-call tools default to it. */
  readonly model: string
  readonly catalog: Catalog
  readonly settings: ServerToolsSetting
  readonly egress: EgressPolicy
  /** The tool object's other fields from the request's `tools` (e.g. `{type, timezone}`). */
  readonly requestSettings: Readonly<Record<string, unknown>>
  readonly signal: AbortSignal
  /** Runs a nested call through the same pipeline, billed to the same key. */
  invoke(input: Omit<InvokeInput, 'key'>): Promise<InvokeResult>
  /** Every server tool of this gateway with its description, for tool_search. */
  readonly toolCatalog: readonly { readonly name: string; readonly description: string }[]
}

export interface ServerTool {
  readonly description: string
  /** JSON Schema of the arguments. */
  readonly parameters: Readonly<Record<string, unknown>>
  /** Whether a failure is reported with status `failed` (the item's schema allows it) or `incomplete`. */
  readonly failable: boolean
  /** Why the tool cannot run on this gateway (answered as a 400 before any call), or null. */
  unavailable?(settings: ServerToolsSetting): string | null
  run(args: Readonly<Record<string, unknown>>, context: ServerToolContext): Promise<ServerToolRun>
}

/** A failure the model should read (bad arguments, unreachable page): the loop reports it as the result. */
export class ServerToolFailure extends Error {
  constructor(
    message: string,
    readonly item: Readonly<Record<string, unknown>> = {},
  ) {
    super(message)
  }
}

export function stringArg(args: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = args[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

export function requiredStringArg(args: Readonly<Record<string, unknown>>, name: string): string {
  const value = stringArg(args, name)
  if (value === undefined) throw new ServerToolFailure(`the argument "${name}" (a non-empty string) is required`)
  return value
}
