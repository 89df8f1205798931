// The core batch scenario 'credits' on PostgreSQL with two gateways (two workers) sharing one store; one
// scenario per file keeps each file well under the per-file timeout on a loaded machine.
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
  scenarios: ['credits'],
})
