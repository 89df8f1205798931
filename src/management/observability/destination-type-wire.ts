// The destination types as GET /api/v1/observability/destination-types shows them: each type's config
// fields with their rules (from observability/destination-types.ts) and whether this gateway delivers it.
import { configFields, destinationTypes } from '../../observability/destination-types.ts'
import { deliverableTypes } from '../../observability/exporters/exporter-registry.ts'
import type { DestinationTypeWire } from './schema.ts'

export function describeDestinationTypes(): DestinationTypeWire[] {
  return destinationTypes.map((type) => ({
    type,
    deliverable: deliverableTypes.has(type),
    config: Object.entries(configFields[type]).map(([name, field]) => ({
      name,
      required: field.required,
      secret: field.secret === true,
      url: field.url === true,
      default: field.default ?? null,
      values: field.values === undefined ? null : [...field.values],
    })),
  }))
}
