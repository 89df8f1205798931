// openrouter:subagent — delegates a self-contained task to another model (server_tools.subagent.model,
// else the request's model) in a fresh conversation and returns its outcome.
import { askModel, toolModel } from './ask-model.ts'
import type { ServerTool } from './server-tool.ts'
import { requiredStringArg, stringArg } from './server-tool.ts'

export const subagentTool: ServerTool = {
  description:
    'Delegate a self-contained task to a sub-agent model and get its result. Describe the task completely: the sub-agent sees nothing else.',
  parameters: {
    type: 'object',
    properties: {
      task: { type: 'string', description: 'The complete task description' },
      name: { type: 'string', description: 'A short name for the task' },
    },
    required: ['task'],
    additionalProperties: false,
  },
  failable: true,
  async run(args, context) {
    const task = requiredStringArg(args, 'task')
    const name = stringArg(args, 'name')
    const model = toolModel(context, context.settings.subagent.model)
    const answer = await askModel(context, model, [
      {
        role: 'system',
        content: 'You are a sub-agent. Complete the task you are given and answer with the result only.',
      },
      { role: 'user', content: task },
    ])
    return {
      output: answer.text,
      item: { model, taskDescription: task, outcome: answer.text, ...(name === undefined ? {} : { taskName: name }) },
      nestedCostNano: answer.costNano,
    }
  },
}
