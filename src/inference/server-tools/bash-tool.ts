// openrouter:bash — runs a bash command in the operator's sandbox runner (refused without one).
import { runInSandbox, sandboxOutput, sandboxUnavailable } from './sandbox-runner.ts'
import type { ServerTool } from './server-tool.ts'
import { requiredStringArg } from './server-tool.ts'

export const bashTool: ServerTool = {
  description: 'Run a bash command in a sandbox and get its stdout, stderr and exit code.',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The bash command' } },
    required: ['command'],
    additionalProperties: false,
  },
  failable: true,
  unavailable: sandboxUnavailable('bash'),
  async run(args, context) {
    const command = requiredStringArg(args, 'command')
    const answer = await runInSandbox('bash', { command }, context)
    return {
      output: sandboxOutput(answer),
      item: {
        command,
        stdout: answer.stdout,
        stderr: answer.stderr,
        ...(answer.exitCode === null ? {} : { exitCode: answer.exitCode }),
      },
    }
  },
}
