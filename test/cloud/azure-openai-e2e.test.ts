// End to end against Azure OpenAI: every client dialect through a deployment-URL provider (Chat
// Completions wire, api-key) and a v1-URL provider (Responses wire), embeddings at the deployment URL.
import { before, after, describe } from 'node:test'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { azureOpenAiDialect } from '../fake-upstreams/azure-openai-dialect.ts'
import { startCloudWorld, type CloudSetup, type CloudWorld } from './cloud-world.ts'
import { dialectTests } from './dialects-against-cloud.ts'

function azureSetup(name: string, upstream: FakeUpstream, options: string, embeddings: boolean): CloudSetup {
  return {
    name,
    providerYaml: `{ slug: ${name}, api: azure-openai, base_url: "${upstream.url}", api_key: azure-secret, options: ${options} }`,
    upstreamModelId: `${name}-deployment`,
    ...(embeddings ? { embeddingsModelId: `${name}-embeddings` } : {}),
    script: (...replies) => upstream.script(...replies),
    requestCount: () => upstream.requests.length,
    close: () => upstream.close(),
  }
}

let chat: CloudSetup
let responses: CloudSetup
let world: CloudWorld

before(async () => {
  chat = azureSetup(
    'azure-chat',
    await startFakeUpstream({ api: 'azure-openai', apiKey: 'azure-secret' }),
    '{ api_version: "2024-10-21" }',
    true,
  )
  responses = azureSetup(
    'azure-responses',
    await startFakeUpstream({ api: 'azure-openai', apiKey: 'azure-secret', dialect: azureOpenAiDialect('responses') }),
    '{ wire: responses }',
    false,
  )
  world = await startCloudWorld([chat, responses])
})
after(() => world.close())

describe('azure-openai, deployment URLs, chat wire', () =>
  dialectTests(
    () => chat,
    () => world,
    true,
  ))
describe('azure-openai, v1 URLs, responses wire', () =>
  dialectTests(
    () => responses,
    () => world,
    false,
  ))
