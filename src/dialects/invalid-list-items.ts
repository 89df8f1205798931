// Narrows a refused body to the items its error report needs. TypeBox's error walk is interpreted and
// visits every item of every list, each union branch of each item (tens of microseconds an item), so a
// 100,000-message body under its bound with one bad message took seconds to be refused. Here each list
// reached through object properties is scanned with its item schema's compiled check (the cost of
// validating a good body), and only its first `maxInvalid` bad items are kept for the error walk; the
// scan stops at the next bad item, which only says that there are more.

import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { arrayBranches, objectBranches, type SchemaNode } from './schema-branches.ts'

/** A list scanned: the original index of each item kept, and whether bad items were left out. */
interface ScannedList {
  readonly indices: readonly number[]
  readonly hasMore: boolean
}

export interface NarrowedBody {
  /** The body with each scanned list reduced to its kept items (the rest of the body as it was). */
  readonly body: unknown
  /** The field paths (`/messages`) of the lists with more bad items than were kept. */
  readonly truncated: readonly string[]
  /** An instance path of the narrowed body (`/messages/0/content`) as a path of the original body. */
  toOriginalPath(instancePath: string): string
}

/** Lists no longer than this are kept whole: narrowing them saves nothing worth the copy. */
const smallList = 64

const itemChecks = new WeakMap<object, (item: unknown) => boolean>()

export function narrowToInvalidItems(schema: TSchema, body: unknown, maxInvalid: number): NarrowedBody {
  const lists = new Map<string, ScannedList>()
  const narrowed = narrow(schema as SchemaNode, body, '', maxInvalid, lists)
  return {
    body: narrowed,
    truncated: [...lists].filter(([, list]) => list.hasMore).map(([path]) => path),
    toOriginalPath: (instancePath) => toOriginalPath(instancePath, lists),
  }
}

function narrow(node: SchemaNode, value: unknown, path: string, maxInvalid: number, lists: Map<string, ScannedList>) {
  if (Array.isArray(value)) {
    const branches = arrayBranches(node)
    const items = branches.length === 1 ? branches[0]!.items : undefined
    if (items === undefined || value.length <= smallList) return value
    const list = scanList(items, value, maxInvalid, branches[0]!.minItems ?? 0)
    lists.set(path, list)
    return list.indices.map((index) => value[index])
  }
  const objects = objectBranches(node)
  if (typeof value !== 'object' || value === null || objects.length !== 1) return value
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const [key, child] of Object.entries(objects[0]!.properties ?? {})) {
    if (copy[key] !== undefined) copy[key] = narrow(child, copy[key], `${path}/${key}`, maxInvalid, lists)
  }
  return copy
}

/** The first `maxInvalid` bad items (padded with good ones up to `minItems`); stops at the next bad one. */
function scanList(items: SchemaNode, value: readonly unknown[], maxInvalid: number, minItems: number): ScannedList {
  const check = itemCheckOf(items)
  const indices: number[] = []
  let hasMore = false
  for (let index = 0; index < value.length; index++) {
    if (check(value[index])) continue
    if (indices.length === maxInvalid) {
      hasMore = true
      break
    }
    indices.push(index)
  }
  for (let index = 0; indices.length < minItems && index < value.length; index++) {
    if (!indices.includes(index)) indices.push(index)
  }
  return { indices: indices.sort((a, b) => a - b), hasMore }
}

function itemCheckOf(items: SchemaNode): (item: unknown) => boolean {
  let check = itemChecks.get(items)
  if (check === undefined) {
    const compiled = Compile(items as TSchema)
    check = (item) => compiled.Check(item)
    itemChecks.set(items, check)
  }
  return check
}

function toOriginalPath(instancePath: string, lists: ReadonlyMap<string, ScannedList>): string {
  const segments = instancePath.split('/')
  let prefix = ''
  for (let at = 1; at < segments.length; at++) {
    const list = lists.get(prefix)
    const position = Number(segments[at])
    if (list !== undefined && /^\d+$/.test(segments[at]!) && position < list.indices.length) {
      segments[at] = String(list.indices[position])
    }
    prefix += `/${segments[at]}`
  }
  return segments.join('/')
}
