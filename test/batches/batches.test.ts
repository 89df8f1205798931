// Batches on SQLite with one worker: the core scenarios plus validation and callbacks.
import { defineBatchCoreSuite } from './batch-core-suite.ts'

defineBatchCoreSuite({ label: 'sqlite', skip: false, twoWorkers: false, largeBatchSize: 1000 })
