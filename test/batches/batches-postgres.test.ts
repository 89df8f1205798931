// The core batch scenarios on PostgreSQL with two gateways (two workers) sharing one store.
import { postgresTarget } from '../support/test-services.ts'
import { defineBatchCoreSuite } from './batch-core-suite.ts'

const postgres = postgresTarget()
defineBatchCoreSuite({ label: 'postgres, two workers', postgresUrl: postgres.url, skip: postgres.skip, twoWorkers: true, largeBatchSize: 300 })
