// The parts of a compiled JSON schema that the list checks walk (oversized-lists.ts,
// invalid-list-items.ts): object properties, array items and their bounds, and `anyOf` unions, whose
// object or array branches are each followed.

export interface SchemaNode {
  readonly type?: unknown
  readonly properties?: Readonly<Record<string, SchemaNode>>
  readonly anyOf?: readonly SchemaNode[]
  readonly minItems?: number
  readonly maxItems?: number
  readonly items?: SchemaNode
}

export function arrayBranches(node: SchemaNode): SchemaNode[] {
  if (node.type === 'array') return [node]
  return (node.anyOf ?? []).flatMap(arrayBranches)
}

export function objectBranches(node: SchemaNode): SchemaNode[] {
  if (node.type === 'object' && node.properties !== undefined) return [node]
  return (node.anyOf ?? []).flatMap(objectBranches)
}
