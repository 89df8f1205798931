// Runs one server-tool call the model made and turns any outcome into the function result the model
// reads and the `openrouter:<tool>` output item the client sees. A tool failure (bad arguments, page
// unreachable, engine not configured) is a result the model can react to, not a failed request.
import type { ServerToolName } from '../../domain/inference/request-options.ts'
import { serverToolRegistry } from './server-tool-registry.ts'
import { ServerToolFailure, type ServerToolContext } from './server-tool.ts'

export interface ToolCallOutcome {
  readonly output: string
  readonly item: Readonly<Record<string, unknown>>
  readonly nestedCostNano: bigint
  readonly webSearchRequests: number
}

export function toolItemId(generationId: string, index: number): string {
  return `st_${generationId}_${index}`
}

export function startedToolItem(tool: ServerToolName, id: string): Record<string, unknown> {
  return { type: `openrouter:${tool}`, id, status: 'in_progress' }
}

export async function runServerTool(
  tool: ServerToolName,
  argumentsText: string,
  id: string,
  context: ServerToolContext,
): Promise<ToolCallOutcome> {
  const definition = serverToolRegistry[tool]
  const base = { type: `openrouter:${tool}`, id }
  try {
    const args = parseArguments(argumentsText)
    const run = await definition.run(args, context)
    return {
      output: run.output,
      item: { ...base, status: 'completed', ...run.item },
      nestedCostNano: run.nestedCostNano ?? 0n,
      webSearchRequests: run.webSearchRequests ?? 0,
    }
  } catch (error) {
    if (context.signal.aborted) throw error
    const message =
      error instanceof ServerToolFailure ? error.message : `the tool failed unexpectedly: ${(error as Error).message}`
    const details = error instanceof ServerToolFailure ? error.item : {}
    return {
      output: `Error from openrouter:${tool}: ${message}`,
      item: { ...base, status: definition.failable ? 'failed' : 'incomplete', ...details, error: message },
      nestedCostNano: 0n,
      webSearchRequests: 0,
    }
  }
}

function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new ServerToolFailure('the arguments are not valid JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ServerToolFailure('the arguments must be a JSON object')
  return parsed as Record<string, unknown>
}
