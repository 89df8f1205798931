// fast-check generators of hostile requests for one operation of the gateway's OpenAPI document: path
// parameters, query parameters and JSON bodies of the wrong type, huge (long strings, 30,000-element
// arrays), deep (10,000 levels of nesting), with NUL bytes and unpaired surrogates, out-of-range numbers,
// and bodies that are not JSON at all. Bodies follow the operation's schema loosely (its property names
// with values of any kind), so validation past the first field is reached too.
import fc from 'fast-check'

export interface Operation {
  readonly method: string
  /** The path template, e.g. `/api/v1/keys/{hash}`. */
  readonly path: string
  readonly pathParameters: readonly string[]
  readonly queryParameters: readonly string[]
  /** Top-level property names of the JSON body schema (empty when it has none or none is declared). */
  readonly bodyProperties: readonly string[]
  readonly hasBody: boolean
}

export interface FuzzRequest {
  readonly method: string
  readonly url: string
  /** The body text, already serialized (possibly not JSON). */
  readonly payload: string | undefined
  readonly keyName: 'management' | 'inference'
}

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, OpenApiOperation>>
  readonly components?: { readonly schemas?: Record<string, SchemaObject> }
}
interface OpenApiOperation {
  readonly parameters?: readonly { readonly in: string; readonly name: string }[]
  readonly requestBody?: { readonly content?: Record<string, { readonly schema?: SchemaObject }> }
}
interface SchemaObject {
  readonly $ref?: string
  readonly properties?: Record<string, unknown>
}

/** Every operation of the document. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const parameters = operation.parameters ?? []
      let schema = operation.requestBody?.content?.['application/json']?.schema
      if (schema?.$ref !== undefined) schema = document.components?.schemas?.[schema.$ref.split('/').pop()!]
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        bodyProperties: Object.keys(schema?.properties ?? {}),
        hasBody: method !== 'get' && method !== 'delete',
      })
    }
  }
  return operations
}

const loneSurrogate = '\ud800'
/** Replaced in the serialized body by a number JSON can carry but no integer column can. */
const hugeNumberMark = '__huge_number__'

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '\u0000',
    `a\u0000b`,
    loneSurrogate,
    `x${loneSurrogate}y`,
    '\udfff',
    '',
    ' ',
    '..',
    '%00',
    '../../etc',
  ),
  fc.constantFrom('a'.repeat(70_000), '\u0000'.repeat(1000), '9223372036854775807', '-1', '1e309', 'NaN', 'true'),
)

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, 1e300, 0.5, hugeNumberMark),
)

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileText, { maxLength: 5 }),
  fc.constantFrom(
    Array.from({ length: 30_000 }, (_unused, index) => `name_${index}`),
    Array.from({ length: 100_000 }, () => 'same'),
    { [loneSurrogate]: 1, '\u0000': 2 },
  ),
)

/** A body text: shaped like the schema with hostile values, any JSON, deep nesting, or not JSON. */
function bodyOf(operation: Operation): fc.Arbitrary<string> {
  const shaped =
    operation.bodyProperties.length === 0
      ? fc.dictionary(hostileText, hostileValue, { maxKeys: 4 })
      : fc.record(Object.fromEntries(operation.bodyProperties.map((name) => [name, hostileValue])), {
          requiredKeys: [],
        })
  return fc.oneof(
    { weight: 6, arbitrary: shaped.map(serialize) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(serialize) },
    { weight: 1, arbitrary: fc.constantFrom('['.repeat(10_000) + ']'.repeat(10_000), '{"a":'.repeat(5_000)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', 'null', '"text"', '{"model": "x"', '\u0000') },
  )
}

function serialize(value: unknown): string {
  return JSON.stringify(value).replaceAll(`"${hugeNumberMark}"`, '1e999')
}

/** A path segment or query value, percent-encoded; an unpaired surrogate as its WTF-8 bytes. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return text.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^%A-Za-z0-9]/g, (char) => encodeURIComponent(char))
  }
}

export function requestsFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const pathValues = fc.tuple(...operation.pathParameters.map(() => fc.oneof(hostileText, hostileNumber.map(String))))
  const queryValues = fc.dictionary(
    fc.constantFrom(...operation.queryParameters, 'unknown_parameter'),
    fc.oneof(hostileText, hostileNumber.map(String), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 })),
    { maxKeys: operation.queryParameters.length + 1 },
  )
  const payload = operation.hasBody ? fc.option(bodyOf(operation), { freq: 8 }) : fc.constant(null)
  return fc
    .record({
      pathValues,
      queryValues,
      payload,
      keyName: fc.constantFrom<FuzzRequest['keyName']>('management', 'inference'),
    })
    .map(({ pathValues: values, queryValues: query, payload: body, keyName }) => {
      let index = 0
      const path = operation.path.replace(/\{[^}]+\}/g, () => encode(String(values[index++])))
      const search = Object.entries(query)
        .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item) => `${name}=${encode(item)}`))
        .join('&')
      return {
        method: operation.method,
        url: search === '' ? path : `${path}?${search}`,
        payload: body ?? undefined,
        keyName,
      }
    })
}
