// Bedrock credentials from a named AWS profile, resolved as the AWS SDKs do: the gateway signs with the
// profile's keys (not the file's default ones), and a profile the file lacks fails the request with a
// clear error while the gateway keeps serving.
import { before, after, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { verifySigv4 } from '../fake-upstreams/sigv4-verifier.ts'
import { startCloudWorld, type CloudSetup, type CloudWorld } from './cloud-world.ts'
import { lastToolNames } from './wire-tool-names.ts'

const team = { accessKeyId: 'AKIDTEAM', secretAccessKey: 'team-secret', sessionToken: 'team-session' }
const credentialsFile = join(mkdtempSync(join(tmpdir(), 'switchyard-aws-')), 'credentials')
writeFileSync(
  credentialsFile,
  [
    '[default]',
    'aws_access_key_id = AKIDDEFAULT',
    'aws_secret_access_key = default-secret',
    '',
    '# the team account',
    '[team]',
    `aws_access_key_id = ${team.accessKeyId}`,
    `aws_secret_access_key = ${team.secretAccessKey}`,
    `aws_session_token = ${team.sessionToken}`,
    '',
  ].join('\n'),
)

let bedrock: FakeUpstream
let world: CloudWorld

function setupFor(slug: string, profile: string): CloudSetup {
  return {
    name: slug,
    providerYaml:
      `{ slug: ${slug}, api: bedrock, base_url: "${bedrock.url}", ` +
      `options: { region: eu-west-3, profile: ${profile}, credentials_file: "${credentialsFile}" } }`,
    upstreamModelId: 'anthropic.claude-sonnet-4-20250514-v1:0',
    script: (...replies) => bedrock.script(...replies),
    requestCount: () => bedrock.requests.length,
    sentToolNames: lastToolNames(bedrock, 'bedrock'),
    close: async () => {},
  }
}

before(async () => {
  bedrock = await startFakeUpstream({
    api: 'bedrock',
    verify: (request) => verifySigv4(request, { ...team, region: 'eu-west-3', service: 'bedrock' }),
  })
  world = await startCloudWorld([setupFor('teamrock', 'team'), setupFor('lostrock', 'nobody')])
})
after(async () => {
  await world.close()
  await bedrock.close()
})

test("requests are signed with the named profile's keys and session token", async () => {
  bedrock.script({ type: 'completion', text: 'signed by the team', usage: { input_tokens: 6, output_tokens: 4 } })
  const completion = await world
    .openai()
    .chat.completions.create({ model: 'cloud/teamrock', messages: [{ role: 'user', content: 'hi' }] })
  assert.equal(completion.choices[0]?.message.content, 'signed by the team')
  const last = bedrock.requests.at(-1)
  assert.equal(last?.headers['x-amz-security-token'], team.sessionToken)
  assert.match(String(last?.headers.authorization), /Credential=AKIDTEAM\//)
})

test('a profile the credentials file lacks fails the request, not the gateway', async () => {
  const before = bedrock.requests.length
  await assert.rejects(
    world.openai().chat.completions.create({ model: 'cloud/lostrock', messages: [{ role: 'user', content: 'hi' }] }),
    (error: Error & { status?: number }) => {
      assert.equal(error.status, 502)
      assert.match(error.message, /Provider lostrock: could not obtain credentials.*nobody/)
      return true
    },
  )
  assert.equal(bedrock.requests.length, before, 'nothing unsigned reaches the upstream')
  bedrock.script({ type: 'completion', text: 'still serving', usage: { input_tokens: 2, output_tokens: 2 } })
  const completion = await world
    .openai()
    .chat.completions.create({ model: 'cloud/teamrock', messages: [{ role: 'user', content: 'again' }] })
  assert.equal(completion.choices[0]?.message.content, 'still serving')
})
