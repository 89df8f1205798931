// The core batch scenarios on PostgreSQL with two workers, continued: 402 -> grant -> 200, the 30-day
// 410 and list filters (split from batches-postgres.test.ts to keep each file short).
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { defineBatchCoreSuite } from './batch-core-suite.ts'

const postgres = postgresTarget()
defineBatchCoreSuite({ label: 'postgres, two workers', postgresUrl: postgres.url, redisUrl: redisTarget().url, skip: postgres.skip, twoWorkers: true, largeBatchSize: 200, scenarios: ['credits', 'retention', 'list'] })
