// Concurrent chat clients for the crash test: each sends one Chat Completions request after another,
// plain and streamed in turn, and keeps the generation id of every answer it received whole (the JSON
// body; a stream through `data: [DONE]`). Requests cut off by a crash are counted, not kept.

export interface ChatTraffic {
  /** Generation ids of the answers received whole. */
  readonly answered: readonly string[]
  /** Requests that failed or were cut off. */
  readonly cutOff: () => number
  /** Stops sending; resolves when every client's last request has ended. */
  stop(): Promise<void>
}

export function driveChatTraffic(url: string, key: string, model: string, clients: number): ChatTraffic {
  const answered: string[] = []
  let cutOff = 0
  let isStopped = false
  const client = async (offset: number): Promise<void> => {
    for (let turn = offset; !isStopped; turn++) {
      const stream = turn % 2 === 1
      try {
        const response = await fetch(`${url}/api/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: `turn ${turn}` }] }),
        })
        const text = await response.text()
        const generationId = response.headers.get('x-generation-id')
        if (response.status === 200 && generationId !== null && isWhole(text, stream)) answered.push(generationId)
        else cutOff++
      } catch {
        cutOff++
      }
    }
  }
  const running = Array.from({ length: clients }, (_unused, index) => client(index))
  return {
    answered,
    cutOff: () => cutOff,
    stop: async () => {
      isStopped = true
      await Promise.all(running)
    },
  }
}

function isWhole(text: string, stream: boolean): boolean {
  if (stream) return text.trimEnd().endsWith('data: [DONE]')
  try {
    const body = JSON.parse(text) as { choices?: unknown[] }
    return Array.isArray(body.choices) && body.choices.length > 0
  } catch {
    return false
  }
}
