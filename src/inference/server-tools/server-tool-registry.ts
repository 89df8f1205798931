// Every server tool by name: the loop, the function names the model sees and tool_search read this.
import type { ServerToolName } from '../../domain/inference/request-options.ts'
import { advisorTool } from './advisor-tool.ts'
import { applyPatchTool } from './apply-patch-tool.ts'
import { bashTool } from './bash-tool.ts'
import { datetimeTool } from './datetime-tool.ts'
import { fusionTool } from './fusion-tool.ts'
import { imageGenerationTool } from './image-generation-tool.ts'
import { searchModelsTool } from './search-models-tool.ts'
import type { ServerTool } from './server-tool.ts'
import { shellTool } from './shell-tool.ts'
import { subagentTool } from './subagent-tool.ts'
import { toolSearchTool } from './tool-search-tool.ts'
import { webFetchTool } from './web-fetch-tool.ts'
import { webSearchTool } from './web-search-tool.ts'

export const serverToolRegistry: Readonly<Record<ServerToolName, ServerTool>> = {
  advisor: advisorTool,
  apply_patch: applyPatchTool,
  bash: bashTool,
  datetime: datetimeTool,
  fusion: fusionTool,
  image_generation: imageGenerationTool,
  experimental__search_models: searchModelsTool,
  shell: shellTool,
  subagent: subagentTool,
  tool_search: toolSearchTool,
  web_fetch: webFetchTool,
  web_search: webSearchTool,
}

/** The function name the model sees for a server tool: `openrouter_<tool>`. */
export function functionNameOf(tool: ServerToolName): string {
  return `openrouter_${tool}`
}

export function toolOfFunctionName(name: string, offered: readonly ServerToolName[]): ServerToolName | undefined {
  return offered.find((tool) => functionNameOf(tool) === name)
}
