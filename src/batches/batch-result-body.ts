// The body a batch stores for a completed chat line: the spec's batch results give every choice a
// `logprobs` object with `content[]` and `refusal[]` arrays (empty when the line did not ask for log
// probabilities, or the model refused nothing), where a live Chat Completions answer has null.
// Other bodies (embeddings, Responses) are stored as answered.

export function batchResultBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('choices' in body) || !Array.isArray(body.choices)) return body
  return { ...body, choices: body.choices.map(withLogprobArrays) }
}

function withLogprobArrays(choice: unknown): unknown {
  if (typeof choice !== 'object' || choice === null) return choice
  const given = 'logprobs' in choice && typeof choice.logprobs === 'object' ? choice.logprobs : null
  const content = given !== null && 'content' in given && Array.isArray(given.content) ? given.content : []
  const refusal = given !== null && 'refusal' in given && Array.isArray(given.refusal) ? given.refusal : []
  return { ...choice, logprobs: { content, refusal } }
}
