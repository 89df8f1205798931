// API key secrets: 256 random bits, shown once; only their SHA-256 is ever stored or compared.
// Every authenticated request hashes its key once, with the one-shot `crypto.hash` (no Hash object).
import { hash, randomBytes } from 'node:crypto'

const prefix = 'sk-sy-v1-'

export function generateKeySecret(): string {
  return `${prefix}${randomBytes(32).toString('hex')}`
}

export function hashKeySecret(plaintext: string): string {
  return hash('sha256', plaintext, 'hex')
}

/** A display form that identifies a key without revealing it: `sk-sy-v1-3f2...9ab`. */
export function labelKeySecret(plaintext: string): string {
  const body = plaintext.startsWith(prefix) ? plaintext.slice(prefix.length) : plaintext
  const head = plaintext.startsWith(prefix) ? prefix : ''
  return `${head}${body.slice(0, 3)}...${body.slice(-3)}`
}
