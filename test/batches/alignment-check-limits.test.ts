// An alignment check refused by a scope its line spent, on SQLite.
import { defineAlignmentLimitScenarios } from './alignment-check-limits-scenarios.ts'

defineAlignmentLimitScenarios({ label: 'sqlite', skip: false })
