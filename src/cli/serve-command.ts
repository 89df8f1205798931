// `switchyard serve`: start, print where it listens, what it serves (and a first management key), stop
// gracefully. A start that fails prints one line, stops what it started and exits 1.
import { createGateway, type Gateway } from '../gateway.ts'
import { ConfigError } from '../config/load-config.ts'
import type { FastifyInstance } from 'fastify'
import {
  describeListenFailure,
  describeStartFailure,
  type ListenAddress,
  type ListenSettings,
} from './describe-start-up-failure.ts'
import { startUpBanner } from './start-up-banner.ts'
import { credentialSource } from '../config/credential-source.ts'
import type { CommandContext } from './run-command.ts'

export async function serveCommand(_args: string[], context: CommandContext): Promise<number> {
  const { config } = context
  const gateway = await startGateway(context)
  if (gateway === null) return 1
  const listenAddress = { host: config.server.host, port: config.server.port }
  const address = await listenOrExplain(gateway.app.fastify, listenAddress, context)
  const { metricsListener } = gateway.app
  const metricsAddress =
    address === null || metricsListener === null
      ? undefined
      : await listenOrExplain(metricsListener, { host: config.metrics.host, port: config.metrics.port ?? 0 }, context, {
          host: 'metrics.host',
          port: 'metrics.port',
        })
  if (address === null || metricsAddress === null) {
    await gateway.close()
    return 1
  }
  // The handlers go in before the banner: whoever reads the banner may signal at once, and a signal
  // without a handler would kill the process with the default action instead of a graceful stop.
  const stopped = waitForStopSignal(gateway, context)
  context.stdout.write(
    startUpBanner({
      address,
      storeEngine: gateway.storeEngine,
      catalog: gateway.catalog,
      credentialSource: (provider) => credentialSource(config, provider),
    }),
  )
  if (metricsAddress !== undefined) context.stdout.write(`Metrics on ${metricsAddress}/metrics only.\n`)
  printCreatedKeys(gateway, address, context)
  await stopped
  return 0
}

/** Listens; null after printing why it could not (the caller stops the gateway and exits 1). */
async function listenOrExplain(
  server: FastifyInstance,
  listenAddress: ListenAddress,
  context: CommandContext,
  settings?: ListenSettings,
): Promise<string | null> {
  try {
    return await server.listen(listenAddress)
  } catch (error) {
    context.stderr.write(`${describeListenFailure(error, listenAddress, settings)}\n`)
    return null
  }
}

/** The running gateway, or null after printing why it could not start (a config error stays the caller's: exit 2). */
async function startGateway(context: CommandContext): Promise<Gateway | null> {
  try {
    return await createGateway({ config: context.config, clock: context.clock })
  } catch (error) {
    if (error instanceof ConfigError) throw error
    context.stderr.write(`${describeStartFailure(error)}\n`)
    return null
  }
}

function printCreatedKeys(gateway: Gateway, address: string, context: CommandContext): void {
  if (gateway.bootstrap.createdManagementKey !== null) {
    context.stdout.write(
      `\nCreated the first management key. It is shown only this once; keep it:\n\n  ${gateway.bootstrap.createdManagementKey}\n\n` +
        `Try: curl -s ${address.replace('0.0.0.0', '127.0.0.1')}/api/v1/organization/members -H "Authorization: Bearer <that key>"\n\n`,
    )
  }
  if (gateway.bootstrap.adminKeyCreated)
    context.stdout.write('Created the management key given in SWITCHYARD_ADMIN_KEY.\n')
}

function waitForStopSignal(gateway: Gateway, context: CommandContext): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false
    const stop = (): void => {
      if (stopping) return
      stopping = true
      gateway.logger.info('shutting down: finishing in-flight requests')
      gateway.close().then(resolve, (error: unknown) => {
        gateway.logger.error({ err: error }, 'error during shutdown')
        resolve()
      })
    }
    context.onSignal('SIGINT', stop)
    context.onSignal('SIGTERM', stop)
  })
}
