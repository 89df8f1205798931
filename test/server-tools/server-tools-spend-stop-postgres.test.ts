// The server-tool loop's stop at a spend limit, on PostgreSQL.
import { postgresTarget } from '../support/test-services.ts'
import { defineSpendStopScenarios } from './server-tools-spend-stop-scenarios.ts'

const postgres = postgresTarget()
defineSpendStopScenarios({ label: 'postgres', postgresUrl: postgres.url, skip: postgres.skip })
