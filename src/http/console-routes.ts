// GET /console: the web console's built assets (console/ bundled by scripts/build.mjs). The console is a
// static single-page app that talks only to the public /api/v1 routes with the key its user signs in with.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { GatewayError } from '../domain/errors.ts'

export interface ConsoleAsset {
  readonly body: Buffer
  readonly contentType: string
}

export interface ConsoleAssets {
  /** Where the assets were looked for (named in the error when they are missing). */
  readonly directory: string
  /** By file name; null when the directory holds no index.html (the console was not built). */
  readonly files: ReadonlyMap<string, ConsoleAsset> | null
}

// The console loads only its own script and stylesheet and calls only this origin.
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

export function registerConsoleRoutes(app: FastifyInstance, assets: ConsoleAssets): void {
  const schema = { hide: true }
  const serve = async (name: string, reply: FastifyReply) => {
    const asset = findAsset(assets, name)
    reply
      .header('content-type', asset.contentType)
      .header('cache-control', 'no-cache')
      .header('content-security-policy', contentSecurityPolicy)
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
    return reply.send(asset.body)
  }
  app.get('/console', { config: { auth: 'none' }, schema }, async (_request, reply) => serve('index.html', reply))
  app.get<{ Params: { '*'?: string } }>('/console/*', { config: { auth: 'none' }, schema }, async (request, reply) =>
    serve(request.params['*'] || 'index.html', reply),
  )
}

function findAsset(assets: ConsoleAssets, name: string): ConsoleAsset {
  if (assets.files === null)
    throw new GatewayError(
      'unavailable',
      `The console is not built: no index.html in ${assets.directory} (run \`npm run build\`, or set console.assets_dir)`,
    )
  const asset = assets.files.get(name)
  if (asset === undefined) throw new GatewayError('not_found', `No console asset named ${name}`)
  return asset
}
