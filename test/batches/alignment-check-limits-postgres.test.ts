// An alignment check refused by a scope its line spent, on PostgreSQL.
import { postgresTarget } from '../support/test-services.ts'
import { defineAlignmentLimitScenarios } from './alignment-check-limits-scenarios.ts'

const postgres = postgresTarget()
defineAlignmentLimitScenarios({ label: 'postgres', postgresUrl: postgres.url, skip: postgres.skip })
