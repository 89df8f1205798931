// Host-bound secret release through the real vault: a loopback API records what arrives; host names
// are mapped to 127.0.0.1 by an injected lookup, so `api.example.test` and its lookalikes are distinct
// hosts on one server. The secret must arrive only at its bound host and never come back unmasked.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo, LookupFunction } from 'node:net'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { call, createInternVia, mintKey, secretBody, seedingArea } from './intern-test-kit.ts'
import { createSecretEgress, type SecretEgress } from '../../src/interns/secret-egress.ts'
import { GatewayError } from '../../src/domain/errors.ts'

const secretValue = 'tok-9f2c61d0-very-secret'

interface Arrival {
  readonly host: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

const toLoopback = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  if (options.all === true) callback(null, [{ address: '127.0.0.1', family: 4 }])
  else callback(null, '127.0.0.1', 4)
}) as unknown as LookupFunction

describe('secret egress', () => {
  let gateway: TestGateway
  let server: Server
  let port: number
  let egress: SecretEgress
  const arrivals: Arrival[] = []

  before(async () => {
    server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      request.on('end', () => {
        arrivals.push({ host: request.headers.host ?? '', path: request.url ?? '', headers: request.headers, body })
        const redirect = /^\/redirect\?to=(.+)$/.exec(request.url ?? '')
        if (redirect?.[1] !== undefined) {
          response.writeHead(302, { location: decodeURIComponent(redirect[1]) }).end()
          return
        }
        response.writeHead(200, {
          'content-type': 'application/json',
          'x-echo': String(request.headers.authorization ?? ''),
        })
        response.end(JSON.stringify({ saw: request.headers.authorization ?? null, body }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    gateway = await startTestGateway()
    const workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
    const key = await mintKey(gateway, 'inference', workspaceId)
    const intern = await createInternVia(gateway, key, { name: 'egress-tester' })
    const put = await call(gateway, key, {
      method: 'PUT',
      url: `/api/v1/vault/interns/${intern.id}/secrets/api_token`,
      body: secretBody(secretValue, ['API.Example.test.']),
    })
    assert.equal(put.status, 200, put.text)
    const workspacePut = await call(gateway, key, {
      method: 'PUT',
      url: '/api/v1/vault/secrets/api_token',
      body: secretBody('workspace-value-loses', ['other.test']),
    })
    assert.equal(workspacePut.status, 200, workspacePut.text)
    const vault = seedingArea(gateway).vault
    egress = createSecretEgress({
      policy: { allowPrivateNetworks: true },
      secrets: (name) => vault.openEffectiveSecret(intern.id, name),
      lookup: toLoopback,
    })
  })
  after(async () => {
    await egress.close()
    await gateway.close()
    await new Promise((resolve) => server.close(resolve))
  })

  const authorized = (url: string, extra: Record<string, string> = {}) =>
    egress.send({ method: 'GET', url, headers: { authorization: 'Bearer {{secret:api_token}}', ...extra } })
  const leaked = () => arrivals.some((arrival) => JSON.stringify(arrival).includes(secretValue))

  async function assertRefused(url: string, pattern: RegExp): Promise<void> {
    const before = arrivals.length
    await assert.rejects(
      authorized(url),
      (error: unknown) =>
        error instanceof GatewayError && pattern.test(error.message) && !error.message.includes(secretValue),
    )
    assert.equal(arrivals.length, before, `no request may reach the server for ${url}`)
  }

  test('the secret arrives at its bound host and comes back masked', async () => {
    const response = await authorized(`http://api.example.test:${port}/v1/me`)
    const arrival = arrivals.at(-1)
    assert.equal(arrival?.headers.authorization, `Bearer ${secretValue}`)
    assert.equal(response.status, 200)
    assert.equal(response.body.includes(secretValue), false)
    assert.equal(JSON.parse(response.body).saw, 'Bearer [secret:api_token]')
    assert.equal(response.headers['x-echo'], 'Bearer [secret:api_token]')
  })

  test('the body may carry a secret too; it is masked in the answer', async () => {
    const response = await egress.send({
      method: 'POST',
      url: `http://api.example.test:${port}/login`,
      headers: { 'content-type': 'text/plain' },
      body: 'token={{secret:api_token}}',
    })
    assert.equal(arrivals.at(-1)?.body, `token=${secretValue}`)
    assert.equal(JSON.parse(response.body).body, 'token=[secret:api_token]')
  })

  test('an upper-case, trailing-dot spelling of the same host is the same host', async () => {
    await authorized(`http://API.EXAMPLE.TEST.:${port}/same`)
    assert.equal(arrivals.at(-1)?.headers.authorization, `Bearer ${secretValue}`)
  })

  test('subdomain, suffix, parent, other hosts and lookalikes are refused without a call', async () => {
    arrivals.length = 0
    await assertRefused(
      `http://evil.api.example.test:${port}/`,
      /only released to api\.example\.test; the request goes to evil\.api\.example\.test/,
    )
    await assertRefused(`http://api.example.test.evil:${port}/`, /goes to api\.example\.test\.evil/)
    await assertRefused(`http://API.EXAMPLE.TEST.EVIL.:${port}/`, /goes to api\.example\.test\.evil/)
    await assertRefused(`http://example.test:${port}/`, /goes to example\.test\b/)
    await assertRefused(`http://127.0.0.1:${port}/`, /goes to 127\.0\.0\.1/)
    await assertRefused(`http://localhost:${port}/`, /goes to localhost/)
    await assertRefused(`http://\u0430pi.example.test:${port}/`, /goes to xn--pi-/)
    await assertRefused(`http://api.example.test%2eevil:${port}/`, /refused/)
    assert.equal(arrivals.length, 0)
  })

  test('a redirect to another host is refused before the second hop; same-host redirects are followed', async () => {
    arrivals.length = 0
    const target = encodeURIComponent(`http://evil.test:${port}/steal`)
    await assertRefusedAfterFirstHop(`http://api.example.test:${port}/redirect?to=${target}`)
    assert.equal(
      arrivals.some((arrival) => arrival.path === '/steal'),
      false,
    )
    const sameHost = encodeURIComponent(`http://api.example.test:${port}/landed`)
    const response = await authorized(`http://api.example.test:${port}/redirect?to=${sameHost}`)
    assert.equal(response.status, 200)
    assert.equal(arrivals.at(-1)?.path, '/landed')
    assert.equal(arrivals.at(-1)?.headers.authorization, `Bearer ${secretValue}`)
  })

  async function assertRefusedAfterFirstHop(url: string): Promise<void> {
    await assert.rejects(authorized(url), /only released to api\.example\.test; the request goes to evil\.test/)
    assert.equal(arrivals.length, 1)
    assert.equal(arrivals[0]?.host, `api.example.test:${port}`)
  }

  test('a redirect without secrets may change host', async () => {
    const target = encodeURIComponent(`http://elsewhere.test:${port}/public`)
    const response = await egress.send({ method: 'GET', url: `http://api.example.test:${port}/redirect?to=${target}` })
    assert.equal(response.status, 200)
    assert.equal(arrivals.at(-1)?.host, `elsewhere.test:${port}`)
  })

  test('secrets in the URL, unknown secrets, a Host header and bad schemes are refused', async () => {
    const before = arrivals.length
    await assert.rejects(
      egress.send({ method: 'GET', url: `http://api.example.test:${port}/?t={{secret:api_token}}` }),
      /never in the URL/,
    )
    await assert.rejects(
      egress.send({
        method: 'GET',
        url: `http://api.example.test:${port}/`,
        headers: { 'x-key': '{{secret:missing}}' },
      }),
      /no secret named "missing"/,
    )
    await assert.rejects(
      authorized(`http://api.example.test:${port}/`, { host: 'api.example.test' }),
      /header host may not be set/,
    )
    await assert.rejects(authorized(`file:///etc/passwd`), /scheme file is not allowed/)
    assert.equal(arrivals.length, before)
  })

  test('the private-network rule still applies when loopback is not allowed', async () => {
    const strict = createSecretEgress({
      policy: { allowPrivateNetworks: false },
      secrets: async () => null,
      lookup: toLoopback,
    })
    try {
      await assert.rejects(strict.send({ method: 'GET', url: `http://public.test:${port}/` }), /internal addresses/)
      await assert.rejects(strict.send({ method: 'GET', url: `http://127.0.0.1:${port}/` }), /loopback/)
    } finally {
      await strict.close()
    }
  })

  test('the value never reached anywhere but the bound host', () => {
    for (const arrival of arrivals) {
      if (JSON.stringify(arrival).includes(secretValue)) assert.match(arrival.host, /^api\.example\.test:/)
    }
    assert.equal(leaked(), true)
  })
})
