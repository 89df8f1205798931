// The alignment plugin on batch results, on SQLite.
import { defineAlignmentScenarios } from './batch-alignment-scenarios.ts'

defineAlignmentScenarios({ label: 'sqlite', skip: false })
