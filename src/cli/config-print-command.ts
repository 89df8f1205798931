// `switchyard config print`: the effective configuration as YAML, with every secret redacted.
import { stringify } from 'yaml'
import { redactConfig } from '../config/redact-config.ts'
import type { CommandContext } from './run-command.ts'

export async function configPrintCommand(_args: string[], context: CommandContext): Promise<number> {
  context.stdout.write(stringify(redactConfig(context.config)))
  return 0
}
