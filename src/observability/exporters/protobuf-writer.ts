// Protocol Buffers wire format into one growing Buffer: varints, fixed-width numbers, strings and
// length-delimited messages. A short ASCII string is copied by a loop; any other goes through Buffer's
// native UTF-8 writer (entering it costs several hundred instructions, then it copies a one-byte string
// whole), never a character at a time through a generic encoder. A message's length is written in front of
// it once it ends: one byte is reserved, and a message of 128 bytes or more moves its bytes up by what
// the longer length needs, so the output is the canonical encoding.

/** Strings up to this long are copied by a loop when they are ASCII (under 128 bytes: one length byte). */
const shortAscii = 64
const twoTo32 = 0x1_0000_0000

function varintSize(value: number): number {
  let size = 1
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) size += 1
  return size
}

export class ProtobufWriter {
  #buffer: Buffer
  #position = 0

  constructor(capacity: number) {
    this.#buffer = Buffer.allocUnsafe(Math.max(capacity, 64))
  }

  /** The bytes written, sharing this writer's memory. */
  finish(): Buffer {
    return this.#buffer.subarray(0, this.#position)
  }

  tag(field: number, wireType: number): void {
    if (field >= 16) return this.varint((field << 3) | wireType)
    this.#reserve(1)
    this.#buffer[this.#position++] = (field << 3) | wireType
  }

  /**
   * An unsigned varint; a number outside 0..2^32-1 is written as a 64-bit integer (two's complement
   * for a negative one, as int64 fields hold it).
   */
  varint(value: number): void {
    this.#reserve(10)
    const buffer = this.#buffer
    if (value >= 0 && value < twoTo32) {
      let rest = value >>> 0
      while (rest > 0x7f) {
        buffer[this.#position++] = (rest & 0x7f) | 0x80
        rest >>>= 7
      }
      buffer[this.#position++] = rest
      return
    }
    let low: number
    let high: number
    if (value >= 0) {
      low = value >>> 0
      high = (value / twoTo32) >>> 0
    } else {
      const magnitude = -value
      low = ~(magnitude >>> 0) >>> 0
      high = ~((magnitude / twoTo32) >>> 0) >>> 0
      low = (low + 1) >>> 0
      if (low === 0) high = (high + 1) >>> 0
    }
    while (high > 0 || low > 0x7f) {
      buffer[this.#position++] = (low & 0x7f) | 0x80
      low = ((low >>> 7) | (high << 25)) >>> 0
      high >>>= 7
    }
    buffer[this.#position++] = low
  }

  fixed32(value: number): void {
    this.#reserve(4)
    this.#position = this.#buffer.writeUInt32LE(value >>> 0, this.#position)
  }

  fixed64(low: number, high: number): void {
    this.#reserve(8)
    this.#position = this.#buffer.writeUInt32LE(low >>> 0, this.#position)
    this.#position = this.#buffer.writeUInt32LE(high >>> 0, this.#position)
  }

  double(value: number): void {
    this.#reserve(8)
    this.#position = this.#buffer.writeDoubleLE(value, this.#position)
  }

  /** A length-delimited UTF-8 string (an unpaired surrogate becomes U+FFFD, as TextEncoder writes it). */
  string(value: string): void {
    const length = value.length
    if (length <= shortAscii) {
      // A native write costs several hundred instructions to enter; a short ASCII string is copied here.
      this.#reserve(1 + length)
      const buffer = this.#buffer
      const start = this.#position
      let position = start + 1
      for (let index = 0; index < length; index += 1) {
        const code = value.charCodeAt(index)
        if (code >= 0x80) return this.#encodedString(value)
        buffer[position++] = code
      }
      buffer[start] = length
      this.#position = position
      return
    }
    this.#encodedString(value)
  }

  /** Bytes already encoded (a field written once and kept), copied as they are. */
  raw(bytes: Uint8Array): void {
    this.#reserve(bytes.length)
    this.#buffer.set(bytes, this.#position)
    this.#position += bytes.length
  }

  /**
   * Length-delimited bytes given as hexadecimal digits (trace and span ids): `hex.length / 2` bytes; a
   * pair that is not hexadecimal ends the digits read, and the bytes from it on are zero.
   */
  hexBytes(hex: string): void {
    const length = hex.length >>> 1
    this.varint(length)
    this.#reserve(length)
    const written = this.#buffer.write(hex, this.#position, length, 'hex')
    this.#buffer.fill(0, this.#position + written, this.#position + length)
    this.#position += length
  }

  /** Starts a length-delimited message: returns where its length goes, for `end`. */
  begin(): number {
    this.#reserve(1)
    return this.#position++
  }

  /** Ends the message `begin` started: its length is written in front of it. */
  end(start: number): void {
    const length = this.#position - start - 1
    if (length < 0x80) {
      this.#buffer[start] = length
      return
    }
    const extra = varintSize(length) - 1
    this.#reserve(extra)
    this.#buffer.copyWithin(start + 1 + extra, start + 1, this.#position)
    const end = this.#position + extra
    this.#position = start
    this.varint(length)
    this.#position = end
  }

  /** A string through Buffer's native UTF-8 writer, measured first for its length. */
  #encodedString(value: string): void {
    const length = Buffer.byteLength(value)
    this.varint(length)
    this.#reserve(length)
    this.#position += this.#buffer.write(value, this.#position)
  }

  #reserve(size: number): void {
    const needed = this.#position + size
    if (needed <= this.#buffer.length) return
    let capacity = this.#buffer.length * 2
    while (capacity < needed) capacity *= 2
    const grown = Buffer.allocUnsafe(capacity)
    this.#buffer.copy(grown, 0, 0, this.#position)
    this.#buffer = grown
  }
}
