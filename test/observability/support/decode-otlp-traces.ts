// A small, independent protobuf reader for OTLP ExportTraceServiceRequest (the subset a test checks:
// resource attributes, span ids, names, times and attributes). Written from the .proto field numbers,
// not from our exporter, so it checks the real wire bytes.

export type AttributeValue = string | number | boolean | AttributeValue[] | null

export interface DecodedSpan {
  traceId: string
  spanId: string
  name: string
  startTimeUnixNano: bigint
  endTimeUnixNano: bigint
  attributes: Record<string, AttributeValue>
  resource: Record<string, AttributeValue>
}

type Field = { number: number; wire: number; value: bigint | Buffer }

function readVarint(buffer: Buffer, offset: number): [bigint, number] {
  let result = 0n
  let shift = 0n
  let position = offset
  while (true) {
    const byte = buffer[position++]
    if (byte === undefined) throw new Error('truncated varint')
    result |= BigInt(byte & 0x7f) << shift
    if ((byte & 0x80) === 0) return [result, position]
    shift += 7n
  }
}

function readFields(buffer: Buffer): Field[] {
  const fields: Field[] = []
  let offset = 0
  while (offset < buffer.length) {
    const [tag, afterTag] = readVarint(buffer, offset)
    const number = Number(tag >> 3n)
    const wire = Number(tag & 7n)
    if (wire === 0) {
      const [value, next] = readVarint(buffer, afterTag)
      fields.push({ number, wire, value })
      offset = next
    } else if (wire === 1) {
      fields.push({ number, wire, value: buffer.subarray(afterTag, afterTag + 8) })
      offset = afterTag + 8
    } else if (wire === 2) {
      const [length, start] = readVarint(buffer, afterTag)
      fields.push({ number, wire, value: buffer.subarray(start, start + Number(length)) })
      offset = start + Number(length)
    } else if (wire === 5) {
      fields.push({ number, wire, value: buffer.subarray(afterTag, afterTag + 4) })
      offset = afterTag + 4
    } else throw new Error(`unsupported wire type ${wire}`)
  }
  return fields
}

const bytesOf = (fields: Field[], number: number): Buffer[] =>
  fields.filter((field) => field.number === number).map((field) => field.value as Buffer)

function decodeAnyValue(buffer: Buffer): AttributeValue {
  const field = readFields(buffer)[0]
  if (field === undefined) return null
  switch (field.number) {
    case 1:
      return (field.value as Buffer).toString('utf8')
    case 2:
      return field.value === 1n
    case 3:
      return Number(BigInt.asIntN(64, field.value as bigint))
    case 4:
      return (field.value as Buffer).readDoubleLE(0)
    case 5:
      return bytesOf(readFields(field.value as Buffer), 1).map(decodeAnyValue)
    default:
      return null
  }
}

function decodeAttributes(buffers: Buffer[]): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {}
  for (const buffer of buffers) {
    const fields = readFields(buffer)
    const key = bytesOf(fields, 1)[0]?.toString('utf8') ?? ''
    const value = bytesOf(fields, 2)[0]
    attributes[key] = value === undefined ? null : decodeAnyValue(value)
  }
  return attributes
}

export function decodeOtlpTraces(body: Buffer): DecodedSpan[] {
  const spans: DecodedSpan[] = []
  for (const resourceSpans of bytesOf(readFields(body), 1)) {
    const resourceFields = readFields(resourceSpans)
    const resourceBuffer = bytesOf(resourceFields, 1)[0]
    const resource = resourceBuffer === undefined ? {} : decodeAttributes(bytesOf(readFields(resourceBuffer), 1))
    for (const scopeSpans of bytesOf(resourceFields, 2)) {
      for (const spanBuffer of bytesOf(readFields(scopeSpans), 2)) {
        const fields = readFields(spanBuffer)
        const fixed = (number: number): bigint => bytesOf(fields, number)[0]?.readBigUInt64LE(0) ?? 0n
        spans.push({
          traceId: bytesOf(fields, 1)[0]?.toString('hex') ?? '',
          spanId: bytesOf(fields, 2)[0]?.toString('hex') ?? '',
          name: bytesOf(fields, 5)[0]?.toString('utf8') ?? '',
          startTimeUnixNano: fixed(7),
          endTimeUnixNano: fixed(8),
          attributes: decodeAttributes(bytesOf(fields, 9)),
          resource,
        })
      }
    }
  }
  return spans
}

/** The number of spans in an export request, read down to the span level only (for receivers that just count). */
export function countOtlpSpans(body: Buffer): number {
  let count = 0
  for (const resourceSpans of bytesOf(readFields(body), 1)) {
    for (const scopeSpans of bytesOf(readFields(resourceSpans), 2)) count += bytesOf(readFields(scopeSpans), 2).length
  }
  return count
}
