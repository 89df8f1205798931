// An intern of the policy matrix: created, given the model and provisioned by an operator's inference key
// of the row's workspace, then found by its runtime key (the key its turns call inference with, which
// the row's policy is put on). A turn's status is 200 when the stream ends with `finish_reason: "stop"`,
// else the `error.code` of its error chunk (the failed model call's status).
import assert from 'node:assert/strict'
import { bearer, type TestGateway } from '../support/test-gateway.ts'
import { waitFor } from '../support/wait-for.ts'

export interface MatrixIntern {
  /** The hash of the intern's runtime key. */
  readonly hash: string
  /** Runs one chat turn ("hello there") and answers its status. */
  turn(): Promise<number>
}

interface Answer {
  readonly statusCode: number
  readonly body: string
  json(): unknown
}

export async function matrixIntern(
  gateway: TestGateway,
  operatorKey: string,
  workspaceId: string,
  model: string,
): Promise<MatrixIntern> {
  const as = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown): Promise<Answer> =>
    gateway.inject({
      method,
      url,
      headers: { ...bearer(operatorKey), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    })
  const created = await as('POST', '/api/v1/interns', { name: `matrix-${workspaceId.slice(0, 8)}` })
  assert.equal(created.statusCode, 201, created.body)
  const id = (created.json() as { id: string }).id
  assert.equal((await as('PATCH', `/api/v1/interns/${id}`, { model })).statusCode, 200)
  assert.equal((await as('POST', `/api/v1/interns/${id}/provision`)).statusCode, 202)
  await waitFor(async () => {
    const intern = (await as('GET', `/api/v1/interns/${id}`)).json() as { status: string }
    assert.notEqual(intern.status, 'failed')
    return intern.status === 'running' ? true : undefined
  }, `intern ${id} running`)
  const keys = (
    await gateway.inject({
      method: 'GET',
      url: `/api/v1/keys?workspace_id=${workspaceId}`,
      headers: bearer(gateway.adminKey),
    })
  ).json() as { data: { hash: string; name: string }[] }
  const runtimeKeys = keys.data.filter((key) => key.name === 'Intern runtime key')
  assert.equal(runtimeKeys.length, 1, JSON.stringify(keys.data))
  return { hash: runtimeKeys[0]!.hash, turn: () => turnStatus(as, id) }
}

async function turnStatus(
  as: (method: 'POST', url: string, payload: unknown) => Promise<Answer>,
  id: string,
): Promise<number> {
  const answer = await as('POST', `/api/v1/interns/${id}/chat/completions`, {
    stream: true,
    messages: [{ role: 'user', content: 'hello there' }],
  })
  if (answer.statusCode !== 200) return answer.statusCode
  const chunks = answer.body
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: {'))
    .map(
      (frame) =>
        JSON.parse(frame.slice(6)) as {
          error?: { code: number }
          choices?: { finish_reason: string | null }[]
        },
    )
  const failed = chunks.find((chunk) => chunk.error !== undefined)
  if (failed !== undefined) return failed.error!.code
  assert.equal(chunks.at(-1)?.choices?.[0]?.finish_reason, 'stop', answer.body)
  return 200
}
