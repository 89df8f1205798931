// Dispatches `switchyard <command>`; each command lives in its own file.
import { usage } from './usage.ts'
import type { Writable } from 'node:stream'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import { serveCommand } from './serve-command.ts'
import { migrateCommand } from './migrate-command.ts'
import { keysCreateCommand } from './keys-create-command.ts'
import { configPrintCommand } from './config-print-command.ts'
import { creditsGrantCommand } from './credits-grant-command.ts'
import { ledgerRebuildCountersCommand } from './ledger-rebuild-counters-command.ts'
import { vaultRotateMasterKeyCommand } from './vault-rotate-master-key-command.ts'
import { doctorCommand } from './doctor-command.ts'

export interface CommandContext {
  readonly config: Config
  readonly clock: Clock
  readonly stdout: Writable
  readonly stderr: Writable
  readonly onSignal: (signal: 'SIGINT' | 'SIGTERM', handler: () => void) => void
  /** The process environment, for commands that take one-off secrets (SWITCHYARD_NEW_MASTER_KEY). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

type Command = (args: string[], context: CommandContext) => Promise<number>

const commands: Readonly<Record<string, Command>> = {
  serve: serveCommand,
  migrate: migrateCommand,
  'keys create': keysCreateCommand,
  'config print': configPrintCommand,
  'credits grant': creditsGrantCommand,
  'ledger rebuild-counters': ledgerRebuildCountersCommand,
  'vault rotate-master-key': vaultRotateMasterKeyCommand,
  doctor: doctorCommand,
}

export async function runCommand(argv: string[], context: CommandContext): Promise<number> {
  const words = argv.length === 0 ? ['serve'] : argv
  for (const length of [2, 1]) {
    const name = words.slice(0, length).join(' ')
    const command = commands[name]
    if (command !== undefined) return command(words.slice(length), context)
  }
  context.stderr.write(`unknown command "${words.join(' ')}"\n${usage}`)
  return 2
}
