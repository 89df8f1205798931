// Dispatches `switchyard <command>`; each command lives in its own file.
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

/** One line per command: its synopsis, then what it does. */
export const usage = `usage: switchyard <command> [options]   (no command runs serve; --help, -h or help prints this list)
  serve                                                               run the gateway (the default)
  migrate                                                             apply store migrations and exit
  keys create [--management] [--workspace <id|slug>] [--name <name>]  create an API key and print its plaintext once
  config print                                                        print the effective configuration, secrets redacted
  credits grant <usd> [--note <text>]                                 add credits to the organization's balance
  ledger rebuild-counters [--key-prefix <prefix>]                     replay the ledger into the Redis spend counters
  vault rotate-master-key                                             re-wrap vault keys under SWITCHYARD_NEW_MASTER_KEY
  doctor                                                              check config, store, Redis and provider reachability
`

/** `switchyard --help`, `-h` or `help`: main.ts answers it before loading the config, so it works with any environment. */
export function isHelpRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && ['--help', '-h', 'help'].includes(argv[0] ?? '')
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
