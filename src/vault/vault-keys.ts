// Per-vault key material: an AES-256-GCM data key for values and an HMAC-SHA-256 key for fingerprints,
// both generated per vault and stored only sealed by the master key's SecretBox.
import { createHmac, randomBytes } from 'node:crypto'
import { SecretBox } from './secret-box.ts'

export interface SealedVaultKeys {
  readonly data_key_sealed: string
  readonly fingerprint_key_sealed: string
}

/** Associated data binding each sealed key to its vault, so keys cannot be swapped between rows. */
const dataKeyContext = (vaultId: string): string => `vault-data-key:${vaultId}`
const fingerprintKeyContext = (vaultId: string): string => `vault-fingerprint-key:${vaultId}`
const valueContext = (vaultId: string, name: string): string => `${vaultId}/${name}`

export function createVaultKeys(masterBox: SecretBox, vaultId: string): SealedVaultKeys {
  return wrapVaultKeys(masterBox, vaultId, { dataKey: randomBytes(32), fingerprintKey: randomBytes(32) })
}

export function wrapVaultKeys(
  masterBox: SecretBox,
  vaultId: string,
  keys: { dataKey: Buffer; fingerprintKey: Buffer },
): SealedVaultKeys {
  return {
    data_key_sealed: masterBox.seal(keys.dataKey, dataKeyContext(vaultId)),
    fingerprint_key_sealed: masterBox.seal(keys.fingerprintKey, fingerprintKeyContext(vaultId)),
  }
}

export function unwrapVaultKeys(
  masterBox: SecretBox,
  vaultId: string,
  sealed: SealedVaultKeys,
): { dataKey: Buffer; fingerprintKey: Buffer } {
  return {
    dataKey: masterBox.open(sealed.data_key_sealed, dataKeyContext(vaultId)),
    fingerprintKey: masterBox.open(sealed.fingerprint_key_sealed, fingerprintKeyContext(vaultId)),
  }
}

/** Opens one vault's keys and seals, opens and fingerprints its values. */
export class VaultCipher {
  readonly #vaultId: string
  readonly #box: SecretBox
  readonly #fingerprintKey: Buffer

  constructor(masterBox: SecretBox, vaultId: string, sealed: SealedVaultKeys) {
    const keys = unwrapVaultKeys(masterBox, vaultId, sealed)
    this.#vaultId = vaultId
    this.#box = new SecretBox(keys.dataKey)
    this.#fingerprintKey = keys.fingerprintKey
  }

  seal(name: string, value: string): string {
    return this.#box.seal(value, valueContext(this.#vaultId, name))
  }

  open(name: string, sealed: string): string {
    return this.#box.openText(sealed, valueContext(this.#vaultId, name))
  }

  fingerprint(value: string): string {
    return `sha256:${createHmac('sha256', this.#fingerprintKey).update(value, 'utf8').digest('hex')}`
  }
}
