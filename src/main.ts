// Composition root and command line: the only module that reads the environment.
//   switchyard <command>: the commands and their options are listed in src/cli/run-command.ts (`switchyard --help`).
import { isHelpRequest, usage } from './cli/usage.ts'

async function main(): Promise<number> {
  if (isHelpRequest(process.argv.slice(2))) {
    process.stdout.write(usage)
    return 0
  }
  // Loaded only for a command: --help stays fast because it never loads the gateway's dependencies.
  const { loadConfig, ConfigError } = await import('./config/load-config.ts')
  const { systemClock } = await import('./domain/clock.ts')
  const { runCommand } = await import('./cli/run-command.ts')
  try {
    const config = loadConfig({ env: process.env, cwd: process.cwd() })
    return await runCommand(process.argv.slice(2), {
      config,
      clock: systemClock,
      stdout: process.stdout,
      stderr: process.stderr,
      onSignal: (signal, handler) => process.once(signal, handler),
      env: process.env,
    })
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      return 2
    }
    throw error
  }
}

main().then(
  (code) => {
    if (code !== 0) process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`switchyard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 1
  },
)
