// `switchyard --help`: the command list, in a module that imports nothing, so main.ts prints it without
// loading the gateway's modules (the bundle loads them only for a command).

/** One line per command: its synopsis, then what it does. */
export const usage = `usage: switchyard <command> [options]   (no command runs serve; --help, -h or help prints this list)
  serve                                                               run the gateway (the default)
  migrate                                                             apply store migrations and exit
  keys create [--management] [--workspace <id|slug>] [--name <name>]  create an API key and print its plaintext once
              [--limit <usd>] [--limit-reset daily|weekly|monthly]      with a spending limit (inference keys) and its reset
  config print                                                        print the effective configuration, secrets redacted
  credits grant <usd> [--note <text>]                                 add credits to the organization's balance
  ledger rebuild-counters [--reset] [--key-prefix <prefix>]           replay the ledger into the Redis spend counters
                                                                        (--reset first clears the counters it feeds)
  vault rotate-master-key                                             re-wrap vault keys under SWITCHYARD_NEW_MASTER_KEY
  doctor                                                              check config, store, Redis and each provider's credentials
`

/** `switchyard --help`, `-h` or `help`: main.ts answers it before loading the config, so it works with any environment. */
export function isHelpRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && ['--help', '-h', 'help'].includes(argv[0] ?? '')
}
