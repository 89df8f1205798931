// Generation ids: `gen-<unix seconds>-<20 base62 characters>`, matching ^gen-[0-9A-Za-z-]+$. The gateway
// makes one GenerationIds and every entry point draws from it, so the counting prefix is shared by the
// whole process.
import { randomFillSync } from 'node:crypto'

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const idLength = 20
/**
 * The first characters of the suffix count up (base62, fixed width) in one process, so the ids of one
 * second sort in the order they were made. Stores index generation ids (and the ledger's
 * `<generationId>:<attempt>`): ids that sort by creation are appended at the right edge of those
 * B-trees, where random ones land on a different page each, and every page touched is a page written
 * at commit. The rest is random; 16 base62 characters are ~95 bits.
 */
const sequenceLength = 4
const sequenceSpan = alphabet.length ** sequenceLength
const randomLength = idLength - sequenceLength

export class GenerationIds {
  /** Random bytes drawn 4 KiB at a time: one randomFillSync per ~250 ids instead of one per id. */
  readonly #pool = Buffer.alloc(4096)
  #poolOffset = this.#pool.length
  #sequence = 0

  /** A new id stamped with `nowMs`'s second; see `sequenceLength`. */
  next(nowMs: number): string {
    if (this.#poolOffset + randomLength > this.#pool.length) {
      randomFillSync(this.#pool)
      this.#poolOffset = 0
    }
    let suffix = countingPrefix(this.#sequence)
    this.#sequence = (this.#sequence + 1) % sequenceSpan
    for (let index = this.#poolOffset; index < this.#poolOffset + randomLength; index++)
      suffix += alphabet[this.#pool[index]! % alphabet.length]
    this.#poolOffset += randomLength
    return `gen-${Math.floor(nowMs / 1000)}-${suffix}`
  }
}

/** `sequence` as `sequenceLength` base62 digits, most significant first, so later ones sort after. */
function countingPrefix(sequence: number): string {
  let prefix = ''
  for (let rest = sequence, place = 0; place < sequenceLength; place++, rest = Math.floor(rest / alphabet.length))
    prefix = alphabet[rest % alphabet.length]! + prefix
  return prefix
}
