// The parts a running gateway is assembled from, by area. Not part of the Gateway a user of the module
// gets: tests that assert on state the API does not show (a cache's contents, a worker's progress) reach
// them through assembleGateway.
import type { BatchWorker } from '../batches/batch-worker.ts'
import type { Catalog } from '../domain/catalog.ts'
import type { Observability } from '../observability/create-observability.ts'
import type { Foundation } from './open-foundation.ts'
import type { Accounting } from './start-accounting.ts'
import type { Identity } from './start-identity.ts'
import type { Inference } from './start-inference.ts'
import type { Interns } from './start-interns.ts'
import type { PolicyCaches } from './start-policy-caches.ts'

export interface GatewayParts {
  readonly foundation: Foundation
  readonly identity: Identity
  readonly accounting: Accounting
  readonly caches: PolicyCaches
  readonly observability: Observability
  readonly inference: Inference
  readonly interns: Interns
  readonly batchWorker: BatchWorker
  readonly catalog: Catalog
}
