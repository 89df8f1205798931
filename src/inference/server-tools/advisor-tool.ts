// openrouter:advisor — asks an advisor model (server_tools.advisor.model, else the request's model) for
// advice on a question, for a second opinion mid-task.
import { askModel, toolModel } from './ask-model.ts'
import type { ServerTool } from './server-tool.ts'
import { requiredStringArg, stringArg } from './server-tool.ts'

export const advisorTool: ServerTool = {
  description: 'Ask an advisor model for guidance: describe the situation and the question; it answers with advice.',
  parameters: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'The question, with the context the advisor needs' },
      context: { type: 'string', description: 'Optional background' },
    },
    required: ['question'],
    additionalProperties: false,
  },
  failable: true,
  async run(args, context) {
    const question = requiredStringArg(args, 'question')
    const background = stringArg(args, 'context')
    const prompt = background === undefined ? question : `${background}\n\n${question}`
    const model = toolModel(context, context.settings.advisor.model)
    const answer = await askModel(context, model, [
      { role: 'system', content: 'You are an expert advisor. Give concise, concrete advice.' },
      { role: 'user', content: prompt },
    ])
    return { output: answer.text, item: { model, prompt, advice: answer.text }, nestedCostNano: answer.costNano }
  },
}
