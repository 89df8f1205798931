// The core batch scenarios on PostgreSQL with two gateways (two workers) sharing one store: the large
// batch, an embeddings batch and cancel here; credits, retention and list each in
// batches-postgres-<scenario>.test.ts.
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { defineBatchCoreSuite } from './batch-core-suite.ts'

const postgres = postgresTarget()
defineBatchCoreSuite({
  label: 'postgres, two workers',
  postgresUrl: postgres.url,
  redisUrl: redisTarget().url,
  skip: postgres.skip,
  twoWorkers: true,
  largeBatchSize: 200,
  scenarios: ['large', 'embeddings', 'cancel'],
})
