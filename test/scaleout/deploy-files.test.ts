// The Dockerfile and compose.yaml cannot be built here (no container engine), so this test holds them
// to the documented contract (DESIGN.md §1): services, ports, environment, the load balancer's
// upstreams, and that every command the Dockerfile runs exists in package.json.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { loadConfig } from '../../src/config/load-config.ts'

const root = join(import.meta.dirname, '..', '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')

interface Service {
  image?: string
  build?: string
  ports?: string[]
  expose?: string[]
  environment?: Record<string, string>
  volumes?: string[]
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string | string[] }
}

const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> }
const documentedVariables = new Set([
  'PORT',
  'HOST',
  'DATABASE_URL',
  'REDIS_URL',
  'SWITCHYARD_CONFIG',
  'SWITCHYARD_ADMIN_KEY',
  'SWITCHYARD_MASTER_KEY',
  'LOG_LEVEL',
])
const isProviderVariable = (name: string) => /^[A-Z][A-Z0-9_]*_(API_KEY|BASE_URL)$/.test(name)
const gateways = ['gateway-1', 'gateway-2']

test('compose.yaml runs two gateways, PostgreSQL, Redis and nginx', () => {
  assert.deepEqual(Object.keys(compose.services).sort(), ['gateway-1', 'gateway-2', 'nginx', 'postgres', 'redis'])
  assert.match(compose.services.postgres?.image ?? '', /^postgres:/)
  assert.match(compose.services.redis?.image ?? '', /^redis:/)
  assert.match(compose.services.nginx?.image ?? '', /^nginx:/)
  assert.deepEqual(compose.services.nginx?.ports, ['8080:80'], 'only the load balancer is published')
  for (const name of ['postgres', 'redis'])
    assert.ok(compose.services[name]?.healthcheck !== undefined, `${name} has a healthcheck the gateways wait for`)
})

test('every gateway uses only documented variables and shares one PostgreSQL, one Redis and one master key', () => {
  for (const name of gateways) {
    const service = compose.services[name]!
    assert.equal(service.build, '.', `${name} is built from the Dockerfile`)
    assert.equal(service.ports, undefined, `${name} is reached through nginx only`)
    const environment = service.environment ?? {}
    for (const variable of Object.keys(environment))
      assert.ok(
        documentedVariables.has(variable) || isProviderVariable(variable),
        `${name}: ${variable} is not a documented variable`,
      )
    assert.match(environment.DATABASE_URL ?? '', /^postgres:\/\/[^@]+@postgres:5432\//)
    assert.equal(environment.REDIS_URL, 'redis://redis:6379')
    assert.equal(environment.PORT, '8080')
    assert.equal(environment.HOST, '0.0.0.0')
    assert.match(
      environment.SWITCHYARD_MASTER_KEY ?? '',
      /^\$\{SWITCHYARD_MASTER_KEY:\?/,
      'the master key is required, never generated per instance',
    )
    assert.equal(service.depends_on?.postgres?.condition, 'service_healthy')
    assert.equal(service.depends_on?.redis?.condition, 'service_healthy')
  }
  assert.equal(
    compose.services['gateway-2']?.depends_on?.['gateway-1']?.condition,
    'service_healthy',
    'one instance bootstraps the store first',
  )
})

test('the config file compose mounts is valid with the compose environment', () => {
  const environment = compose.services['gateway-1']!.environment!
  const mount = compose.services['gateway-1']!.volumes!.find((volume) =>
    volume.includes(environment.SWITCHYARD_CONFIG!),
  )
  assert.ok(mount !== undefined, 'SWITCHYARD_CONFIG points at a mounted file')
  const config = loadConfig({
    env: {
      DATABASE_URL: environment.DATABASE_URL!,
      REDIS_URL: environment.REDIS_URL!,
      SWITCHYARD_CONFIG: join(root, mount.split(':')[0]!),
    },
    cwd: root,
  })
  assert.equal(config.store.redis_url, 'redis://redis:6379')
  assert.equal(config.server.trust_proxy, true)
})

test('nginx balances over both gateways on their port and does not buffer streams', () => {
  const nginx = read('deploy/nginx.conf')
  const volumes = compose.services.nginx?.volumes ?? []
  assert.ok(volumes.some((volume) => volume.startsWith('./deploy/nginx.conf:/etc/nginx/nginx.conf')))
  for (const name of gateways) assert.match(nginx, new RegExp(`server ${name}:8080\\b`))
  assert.match(nginx, /proxy_buffering off;/)
  assert.match(nginx, /listen 80;/)
})

test('the Dockerfile is multi-stage, runs as non-root, checks /health, only runs commands package.json has, and holds what npm start builds from', () => {
  const dockerfile = read('Dockerfile')
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts
  assert.ok((dockerfile.match(/^FROM /gm) ?? []).length >= 2, 'multi-stage')
  assert.match(dockerfile, /^USER node$/m)
  assert.match(dockerfile, /^HEALTHCHECK [\s\S]*\/health/m)
  assert.match(dockerfile, /^RUN npm ci\b/m)
  assert.match(dockerfile, /^EXPOSE 8080$/m)
  const npmCommands = [...dockerfile.matchAll(/"npm",\s*"(run",\s*")?([a-z:-]+)"/g)].map((match) => match[2]!)
  const runCommands = [...dockerfile.matchAll(/npm run ([a-z:-]+)/g)].map((match) => match[1]!)
  assert.ok(npmCommands.length > 0, 'the image starts through npm')
  for (const command of [...npmCommands, ...runCommands])
    assert.ok(command in scripts, `package.json has no "${command}" script`)
  assert.match(scripts.start ?? '', /\bserve$/)
  // npm start runs prestart first: the file it runs must be in the image.
  const prestartFile = /^node (\S+)$/.exec(scripts.prestart ?? '')?.[1]
  assert.ok(prestartFile !== undefined, 'prestart runs one script with node')
  assert.match(
    dockerfile,
    new RegExp(`^COPY ${prestartFile.replace(/[.]/g, '\\.')} `, 'm'),
    `the image holds ${prestartFile}`,
  )
  for (const copied of [...dockerfile.matchAll(/^COPY (?!--from)([^\n]+) \S+$/gm)].flatMap((match) =>
    match[1]!.split(' '),
  )) {
    assert.ok(existsSync(join(root, copied)), `COPY source ${copied} exists`)
  }
})
