// AWS credentials of a named profile from the shared credentials file (`~/.aws/credentials`, INI:
// `[profile]` sections with aws_access_key_id, aws_secret_access_key, aws_session_token).
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { AuthorizerDeps } from '../provider-adapter.ts'

export interface AwsCredentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly sessionToken?: string
}

export async function profileCredentials(
  profile: string,
  file: string | undefined,
  deps: AuthorizerDeps,
): Promise<AwsCredentials> {
  const path = file ?? join(homedir(), '.aws', 'credentials')
  const section = parseIni(await deps.readFile(path))[profile]
  const accessKeyId = section?.aws_access_key_id
  const secretAccessKey = section?.aws_secret_access_key
  if (accessKeyId === undefined || secretAccessKey === undefined)
    throw new Error(`profile "${profile}" in ${path} has no aws_access_key_id and aws_secret_access_key`)
  const sessionToken = section?.aws_session_token
  return sessionToken === undefined ? { accessKeyId, secretAccessKey } : { accessKeyId, secretAccessKey, sessionToken }
}

function parseIni(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = Object.create(null) as Record<string, Record<string, string>>
  let current: Record<string, string> | undefined
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = /^\[\s*(?:profile\s+)?([^\]]+?)\s*\]$/.exec(line)
    if (header !== null) {
      current = Object.create(null) as Record<string, string>
      sections[header[1]!] = current
      continue
    }
    const equals = line.indexOf('=')
    if (current !== undefined && equals > 0) current[line.slice(0, equals).trim()] = line.slice(equals + 1).trim()
  }
  return sections
}
