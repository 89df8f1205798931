// The sandbox runner contract for bash, shell and apply_patch: the gateway never executes commands
// itself. When the operator sets `server_tools.sandbox.url`, each call is POSTed there as
// `{tool, arguments, generation_id}` (Bearer `server_tools.sandbox.api_key` when set) and the runner
// answers 200 `{stdout?, stderr?, exit_code?, output?, error?}`. See docs/server-tools.md.
import type { ServerToolsSetting } from '../../config/server-tools-config.ts'
import type { ServerToolContext } from './server-tool.ts'
import { ServerToolFailure } from './server-tool.ts'

export type SandboxToolName = 'bash' | 'shell' | 'apply_patch'

export interface SandboxAnswer {
  readonly stdout: string
  readonly stderr: string
  readonly exitCode: number | null
  /** A summary the runner chose to give (apply_patch: which files changed). */
  readonly output: string
}

export function sandboxUnavailable(tool: SandboxToolName) {
  return (settings: ServerToolsSetting): string | null =>
    settings.sandbox === null
      ? `The server tool openrouter:${tool} needs a sandbox runner; the operator enables it with server_tools.sandbox.url in the gateway config`
      : null
}

export async function runInSandbox(
  tool: SandboxToolName,
  args: Readonly<Record<string, unknown>>,
  context: ServerToolContext,
): Promise<SandboxAnswer> {
  const sandbox = context.settings.sandbox
  if (sandbox === null) throw new ServerToolFailure(sandboxUnavailable(tool)(context.settings)!)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (sandbox.api_key !== null) headers.authorization = `Bearer ${sandbox.api_key}`
  const response = await fetch(sandbox.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ tool, arguments: args, key_hash: context.key.hash }),
    signal: AbortSignal.any([context.signal, AbortSignal.timeout(sandbox.timeout_ms)]),
  }).catch((error: Error) => {
    throw new ServerToolFailure(`the sandbox runner could not be reached: ${error.message}`)
  })
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok || typeof body.error === 'string')
    throw new ServerToolFailure(
      `the sandbox runner failed: ${typeof body.error === 'string' ? body.error : `HTTP ${response.status}`}`,
    )
  const text = (value: unknown): string => (typeof value === 'string' ? value : '')
  return {
    stdout: text(body.stdout),
    stderr: text(body.stderr),
    exitCode: typeof body.exit_code === 'number' ? body.exit_code : null,
    output: text(body.output),
  }
}

export function sandboxOutput(answer: SandboxAnswer): string {
  const parts = [
    answer.output,
    answer.stdout === '' ? '' : `stdout:\n${answer.stdout}`,
    answer.stderr === '' ? '' : `stderr:\n${answer.stderr}`,
  ]
  if (answer.exitCode !== null) parts.push(`exit code: ${answer.exitCode}`)
  return parts.filter((part) => part !== '').join('\n') || '(no output)'
}
