// openrouter:fusion — asks a panel of models the same question (the tool's `models` argument, else the
// request's tool settings, else server_tools.fusion.models), then a judge model (server_tools.fusion.
// judge_model, else the request's model) combines their answers. Every call is billed to the key.
import { askModel, type ModelAnswer } from './ask-model.ts'
import type { ServerTool, ServerToolContext } from './server-tool.ts'
import { ServerToolFailure, requiredStringArg } from './server-tool.ts'

const maxPanel = 8

export const fusionTool: ServerTool = {
  description:
    'Ask several models the same question and get one answer combining their views (consensus, disagreements, unique insights).',
  parameters: {
    type: 'object',
    properties: {
      prompt: { type: 'string', description: 'The question to put to the panel' },
      models: { type: 'array', items: { type: 'string' }, description: 'Optional model ids for the panel' },
    },
    required: ['prompt'],
    additionalProperties: false,
  },
  failable: false,
  async run(args, context) {
    const prompt = requiredStringArg(args, 'prompt')
    const panel = panelModels(args, context)
    const settled = await Promise.allSettled(
      panel.map((model) => askModel(context, model, [{ role: 'user', content: prompt }])),
    )
    const answers = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))
    const failed = settled.flatMap((outcome, index) =>
      outcome.status === 'rejected' ? [{ model: panel[index]!, error: (outcome.reason as Error).message }] : [],
    )
    const panelCost = answers.reduce((sum, answer) => sum + answer.costNano, 0n)
    const responses = answers.map((answer) => ({ model: answer.model, content: answer.text }))
    if (answers.length === 0)
      throw new ServerToolFailure('every model of the panel failed', {
        failed_models: failed,
        failure_reason: 'all panel models failed',
      })
    const judge = await askModel(context, context.settings.fusion.judge_model ?? context.model, [
      {
        role: 'system',
        content:
          'You combine answers from several models into one best answer. Keep what they agree on, resolve contradictions, keep unique correct insights.',
      },
      { role: 'user', content: judgePrompt(prompt, answers) },
    ])
    return {
      output: judge.text,
      item: { responses, ...(failed.length === 0 ? {} : { failed_models: failed }) },
      nestedCostNano: panelCost + judge.costNano,
    }
  },
}

function panelModels(args: Readonly<Record<string, unknown>>, context: ServerToolContext): string[] {
  const fromArgs = Array.isArray(args.models)
    ? args.models.filter((model): model is string => typeof model === 'string' && model !== '')
    : []
  const fromRequest = Array.isArray(context.requestSettings.models)
    ? context.requestSettings.models.filter((model): model is string => typeof model === 'string')
    : []
  const chosen =
    fromArgs.length > 0 ? fromArgs : fromRequest.length > 0 ? fromRequest : [...context.settings.fusion.models]
  const panel = [...new Set(chosen.length > 0 ? chosen : [context.model])].slice(0, maxPanel)
  return panel
}

function judgePrompt(prompt: string, answers: readonly ModelAnswer[]): string {
  const listed = answers
    .map((answer, index) => `--- Answer ${index + 1} (${answer.model}) ---\n${answer.text}`)
    .join('\n\n')
  return `Question:\n${prompt}\n\n${listed}\n\nWrite the combined answer.`
}
