// AES-256-GCM sealing of small secrets under a 32-byte key. Sealed form: `v1.<iv>.<tag>.<ciphertext>`
// (base64url parts). Optional associated data binds a sealed value to its owner (e.g. a vault id), so
// a ciphertext copied to another row fails to open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

export class SecretBox {
  readonly #key: Buffer

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('a SecretBox key must be 32 bytes')
    this.#key = Buffer.from(key)
  }

  seal(plaintext: string | Buffer, associatedData = ''): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv)
    cipher.setAAD(Buffer.from(associatedData, 'utf8'))
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ciphertext.toString('base64url'),
    ].join('.')
  }

  open(sealed: string, associatedData = ''): Buffer {
    const [version, iv, tag, ciphertext] = sealed.split('.')
    if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined)
      throw new Error('not a sealed value')
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'))
    decipher.setAAD(Buffer.from(associatedData, 'utf8'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()])
  }

  openText(sealed: string, associatedData = ''): string {
    return this.open(sealed, associatedData).toString('utf8')
  }
}
