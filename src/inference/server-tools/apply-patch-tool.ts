// openrouter:apply_patch — applies a patch to the sandbox's files through the operator's runner
// (refused without one).
import { runInSandbox, sandboxOutput, sandboxUnavailable } from './sandbox-runner.ts'
import type { ServerTool } from './server-tool.ts'
import { requiredStringArg } from './server-tool.ts'

export const applyPatchTool: ServerTool = {
  description: 'Apply a unified diff to files in the sandbox.',
  parameters: {
    type: 'object',
    properties: { patch: { type: 'string', description: 'The patch, in unified diff format' } },
    required: ['patch'],
    additionalProperties: false,
  },
  failable: false,
  unavailable: sandboxUnavailable('apply_patch'),
  async run(args, context) {
    const patch = requiredStringArg(args, 'patch')
    const answer = await runInSandbox('apply_patch', { patch }, context)
    return { output: sandboxOutput(answer), item: {} }
  },
}
