// A stable fraction in [0, 1) from a string, for sampling decisions that must come out the same on
// every replay of the same id. FNV-1a over the UTF-16 code units, then MurmurHash3's 32-bit finalizer
// so every input bit reaches the top bits. Not cryptographic: sampling needs spread, not secrecy, and
// this costs a fraction of a SHA-256 per request.
export function stableFraction(text: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  hash ^= hash >>> 13
  hash = Math.imul(hash, 0xc2b2ae35)
  hash ^= hash >>> 16
  return (hash >>> 0) / 2 ** 32
}
