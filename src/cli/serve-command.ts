// `switchyard serve`: start, print where it listens (and a first management key), stop gracefully.
import { createGateway } from '../gateway.ts'
import type { CommandContext } from './run-command.ts'

export async function serveCommand(_args: string[], context: CommandContext): Promise<number> {
  const { config } = context
  const gateway = await createGateway({ config, clock: context.clock })
  const address = await gateway.app.fastify.listen({ host: config.server.host, port: config.server.port })
  context.stdout.write(`Switchyard listening on ${address} (store: ${gateway.storeEngine})\n`)
  if (gateway.bootstrap.createdManagementKey !== null) {
    context.stdout.write(
      `\nCreated the first management key. It is shown only this once; keep it:\n\n  ${gateway.bootstrap.createdManagementKey}\n\n` +
        `Try: curl -s ${address.replace('0.0.0.0', '127.0.0.1')}/api/v1/organization/members -H "Authorization: Bearer <that key>"\n\n`,
    )
  }
  if (gateway.bootstrap.adminKeyCreated)
    context.stdout.write('Created the management key given in SWITCHYARD_ADMIN_KEY.\n')
  await new Promise<void>((resolve) => {
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
  return 0
}
