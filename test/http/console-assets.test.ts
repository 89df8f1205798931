// GET /console serves the built console with a policy that lets it load only its own files and call
// only this origin; a gateway whose console was not built says so and how to build it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestGateway } from '../support/test-gateway.ts'

test('the console assets are served without a key, under a same-origin content security policy', async () => {
  const assets = mkdtempSync(join(tmpdir(), 'switchyard-console-assets-'))
  writeFileSync(join(assets, 'index.html'), '<!doctype html><title>console</title>')
  writeFileSync(join(assets, 'console.js'), 'export {}')
  const gateway = await startTestGateway({ yaml: `console: { assets_dir: "${assets}" }\n` })
  try {
    for (const url of ['/console', '/console/', '/console/index.html']) {
      const page = await gateway.inject({ method: 'GET', url })
      assert.equal(page.statusCode, 200, url)
      assert.match(page.headers['content-type'] as string, /^text\/html/)
      assert.equal(page.body, '<!doctype html><title>console</title>')
      assert.match(page.headers['content-security-policy'] as string, /connect-src 'self'/)
      assert.equal(page.headers['referrer-policy'], 'no-referrer')
    }
    const script = await gateway.inject({ method: 'GET', url: '/console/console.js' })
    assert.match(script.headers['content-type'] as string, /^text\/javascript/)
    const missing = await gateway.inject({ method: 'GET', url: '/console/nothing.js' })
    assert.equal(missing.statusCode, 404)
    assert.match(missing.json().error.message, /nothing\.js/)
    const spec = await gateway.inject({ method: 'GET', url: '/api/v1/openapi.json' })
    assert.ok(!Object.keys(spec.json().paths).some((path) => path.startsWith('/console')), 'not an API route')
  } finally {
    await gateway.close()
    rmSync(assets, { recursive: true, force: true })
  }
})

test('a gateway whose console is not built answers 503 naming the directory and the build command', async () => {
  const gateway = await startTestGateway({ yaml: 'console: { assets_dir: "/nonexistent/console" }\n' })
  try {
    const page = await gateway.inject({ method: 'GET', url: '/console' })
    assert.equal(page.statusCode, 503)
    assert.match(page.json().error.message, /not built.*\/nonexistent\/console.*npm run build/)
  } finally {
    await gateway.close()
  }
})
