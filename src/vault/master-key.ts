// The root key for everything encrypted at rest. SWITCHYARD_MASTER_KEY (32 bytes, base64) wins; without
// it a key is generated once into the data directory (mode 0600) with a warning, which suits a single
// node but not several instances (they must share SWITCHYARD_MASTER_KEY).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'

export interface MasterKeySource {
  readonly key: Buffer
  readonly origin: 'environment' | 'file' | 'generated'
  readonly path: string | null
}

export function loadMasterKey(fromEnvironment: string | null, dataDir: string): MasterKeySource {
  if (fromEnvironment !== null)
    return { key: Buffer.from(fromEnvironment, 'base64'), origin: 'environment', path: null }
  const path = join(dataDir, 'master.key')
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')
    if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`)
    return { key, origin: 'file', path }
  }
  mkdirSync(dataDir, { recursive: true })
  const key = randomBytes(32)
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' })
  return { key, origin: 'generated', path }
}
