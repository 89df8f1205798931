// The gateway's server tools offered to an intern's agent loop beside `http_request`, as chat function
// tools named `openrouter_<tool>`. Self-drive interns get datetime, web_fetch, web_search and the two
// catalog searches (tools the operator has not configured, like web_search without an engine, are left
// out); in manual approval mode only the tools that make no outbound request are offered, since every
// outbound action must be approved through `http_request`. Nested-call and sandbox tools are not offered.
import type { ServerToolName } from '../domain/inference/request-options.ts'
import {
  functionNameOf,
  serverToolRegistry,
  toolOfFunctionName,
} from '../inference/server-tools/server-tool-registry.ts'
import { ServerToolFailure, type ServerToolContext } from '../inference/server-tools/server-tool.ts'
import type { ApprovalMode } from './intern-agent.ts'

export interface AgentServerTools {
  /** Chat Completions function tools to offer the model. */
  readonly definitions: readonly Record<string, unknown>[]
  /** Runs a server tool call; undefined when `functionName` is not one of the offered tools. */
  run(functionName: string, rawArguments: string): Promise<string | undefined>
}

const offeredByMode: Readonly<Record<ApprovalMode, readonly ServerToolName[]>> = {
  'self-drive': ['datetime', 'web_fetch', 'web_search', 'tool_search', 'experimental__search_models'],
  manual: ['datetime', 'tool_search', 'experimental__search_models'],
}

export type InternToolContext = Omit<ServerToolContext, 'requestSettings' | 'toolCatalog'>

export function internServerTools(context: InternToolContext, mode: ApprovalMode): AgentServerTools {
  const offered = offeredByMode[mode].filter((name) => serverToolRegistry[name].unavailable?.(context.settings) == null)
  const toolCatalog = offered.map((name) => ({ name, description: serverToolRegistry[name].description }))
  return {
    definitions: offered.map((name) => ({
      type: 'function',
      function: {
        name: functionNameOf(name),
        description: serverToolRegistry[name].description,
        parameters: serverToolRegistry[name].parameters,
      },
    })),
    async run(functionName, rawArguments) {
      const name = toolOfFunctionName(functionName, offered)
      if (name === undefined) return undefined
      let args: Record<string, unknown>
      try {
        const parsed: unknown = JSON.parse(rawArguments === '' ? '{}' : rawArguments)
        args =
          parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
            ? (parsed as Record<string, unknown>)
            : {}
      } catch {
        return JSON.stringify({ error: `${functionName} arguments must be a JSON object` })
      }
      try {
        const run = await serverToolRegistry[name].run(args, { ...context, requestSettings: {}, toolCatalog })
        return run.output
      } catch (error) {
        return JSON.stringify({
          error: error instanceof ServerToolFailure || error instanceof Error ? error.message : String(error),
        })
      }
    },
  }
}
