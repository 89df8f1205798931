// The core batch scenarios, run on SQLite with one worker and on PostgreSQL with two workers sharing one
// store: exact counts for a large batch, an embeddings batch billed line by line, cancel, the 402 -> grant
// -> 200 cycle, 30-day 410, list filters.
import { test } from 'node:test'
import { defineLifecycleScenarios } from './batch-lifecycle-scenarios.ts'
import { defineRunScenarios } from './batch-run-scenarios.ts'

export interface CoreSuiteOptions {
  readonly label: string
  readonly postgresUrl?: string | undefined
  /** Redis for spend counters shared by the two gateways (credits are only global with shared counters). */
  readonly redisUrl?: string | undefined
  readonly skip: string | false
  readonly twoWorkers: boolean
  readonly largeBatchSize: number
  /** The scenarios to define (all when absent), so a slow engine can spread them over files. */
  readonly scenarios?: readonly Scenario[]
}

export type Scenario = 'large' | 'embeddings' | 'cancel' | 'credits' | 'retention' | 'list'

/** Defines one scenario's test when the suite includes it. */
export type DefineScenario = (scenario: Scenario, name: string, skip: string | false, body: () => Promise<void>) => void

export function defineBatchCoreSuite(suite: CoreSuiteOptions): void {
  const { label } = suite
  const define: DefineScenario = (scenario, name, skip, body) => {
    if (suite.scenarios === undefined || suite.scenarios.includes(scenario))
      test(`${label}: ${name}`, { skip: suite.skip !== false ? suite.skip : skip }, body)
  }
  defineRunScenarios(suite, define)
  defineLifecycleScenarios(suite, define)
}
