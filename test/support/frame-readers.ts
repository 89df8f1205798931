// Test helpers for the readers that recognize a provider's text frames without JSON.parse
// (src/providers/*/plain-text-frame.ts): recorded frames, generated frames, and the property that
// whatever a reader reads is what JSON.parse reads from the same frame.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import fc from 'fast-check'

/** The data of every event of a recorded upstream stream (`__transcripts__/<scenario>/upstream.sse`). */
export function recordedFrames(file: URL): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length))
}

/** An object arbitrary's values with their keys in the given order or in any other. */
export function inAnyKeyOrder<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return arbitrary.chain((value) => {
    const keys = Object.keys(value) as (keyof T)[]
    const reordered = fc
      .shuffledSubarray(keys, { minLength: keys.length })
      .map((order) => Object.fromEntries(order.map((key) => [key, value[key]])) as T)
    return fc.oneof(fc.constant(value), reordered)
  })
}

/** For every generated frame, `read` answers undefined or exactly what `parsed` (JSON.parse and the parser's reading) gives. */
export function assertReadsAsParsed<T>(
  frames: fc.Arbitrary<string>,
  read: (data: string) => T | undefined,
  parsed: (data: string) => T | undefined,
): void {
  fc.assert(
    fc.property(frames, (data) => {
      const value = read(data)
      if (value !== undefined) assert.deepEqual(value, parsed(data), data)
    }),
    { numRuns: 3000 },
  )
}

/** Text put into a frame as it is, unescaped: quotes, backslashes and control characters among others. */
export const rawText = fc.string({
  unit: fc.oneof(
    fc.nat(0x7f).map((code) => String.fromCharCode(code)),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
})

/** For every generated stream, a fresh stream reader answers each frame as the one-frame function does, whatever came before it. */
export function assertStreamReaderAgrees<T>(
  stream: fc.Arbitrary<readonly string[]>,
  newReader: () => { read(data: string): T | undefined },
  readOne: (data: string) => T | undefined,
): void {
  fc.assert(
    fc.property(stream, (frames) => {
      const reader = newReader()
      for (const data of frames) assert.deepEqual(reader.read(data), readOne(data), data)
    }),
    { numRuns: 2000 },
  )
}
