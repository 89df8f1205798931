// The server-tool loop's stop at a spend limit, on SQLite.
import { defineSpendStopScenarios } from './server-tools-spend-stop-scenarios.ts'

defineSpendStopScenarios({ label: 'sqlite', skip: false })
