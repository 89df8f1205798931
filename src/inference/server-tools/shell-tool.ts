// openrouter:shell — runs a list of shell commands in the operator's sandbox runner (refused without one).
import { runInSandbox, sandboxOutput, sandboxUnavailable } from './sandbox-runner.ts'
import type { ServerTool } from './server-tool.ts'
import { ServerToolFailure } from './server-tool.ts'

export const shellTool: ServerTool = {
  description: 'Run shell commands in a sandbox, in order, and get their output.',
  parameters: {
    type: 'object',
    properties: { commands: { type: 'array', items: { type: 'string' }, description: 'The commands to run' } },
    required: ['commands'],
    additionalProperties: false,
  },
  failable: true,
  unavailable: sandboxUnavailable('shell'),
  async run(args, context) {
    const commands = Array.isArray(args.commands)
      ? args.commands.filter((command): command is string => typeof command === 'string')
      : []
    if (commands.length === 0)
      throw new ServerToolFailure('the argument "commands" (a non-empty array of strings) is required')
    const answer = await runInSandbox('shell', { commands }, context)
    return { output: sandboxOutput(answer), item: { action: { commands }, arguments: JSON.stringify(args) } }
  },
}
