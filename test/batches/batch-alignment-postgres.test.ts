// The alignment plugin on batch results, on PostgreSQL.
import { postgresTarget } from '../support/test-services.ts'
import { defineAlignmentScenarios } from './batch-alignment-scenarios.ts'

const postgres = postgresTarget()
defineAlignmentScenarios({ label: 'postgres', postgresUrl: postgres.url, skip: postgres.skip })
