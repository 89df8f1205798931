// The entry points of the call core, and the source files that reach it. The policy matrix
// (test/inference/policy-matrix.test.ts) runs one call per entry point, keyed by `CallEntryPoint`, so a
// name added here fails to compile there until the matrix runs it; the architecture test
// (test/architecture/call-entry-points.test.ts) finds every file that starts a call or holds the invoke
// port and fails until it is listed below, with the entry points the matrix checks it through.
import type { BatchEndpoint } from '../../src/batches/batch-status.ts'

export type CallEntryPoint =
  | '/api/v1/chat/completions'
  | '/api/v1/responses'
  | '/api/v1/messages'
  | '/api/v1/embeddings'
  | '/api/v1/systemone'
  | 'server-tool step'
  | 'intern turn'
  | `batch line ${BatchEndpoint}`

/** A caller's entry points, or why it is part of the core or its wiring rather than an entry point. */
export type CallerRole = readonly CallEntryPoint[] | { readonly wiring: string }

const allBatchLines: readonly CallEntryPoint[] = [
  'batch line /v1/chat/completions',
  'batch line /v1/responses',
  'batch line /v1/messages',
  'batch line /v1/embeddings',
]

/** The batch lines whose answers an alignment plugin can check. */
const alignedBatchLines: readonly CallEntryPoint[] = [
  'batch line /v1/chat/completions',
  'batch line /v1/responses',
  'batch line /v1/messages',
]

/** Every file under src/ that starts a call or holds the invoke port, by path from the repository root. */
export const coreCallers: Readonly<Record<string, CallerRole>> = {
  'src/inference/inference-routes.ts': ['/api/v1/chat/completions', '/api/v1/responses', '/api/v1/messages'],
  'src/inference/embeddings/embeddings-routes.ts': ['/api/v1/embeddings'],
  'src/inference/systemone/run-decisions.ts': ['/api/v1/systemone'],
  'src/batches/line-pipelines.ts': allBatchLines,
  // run-batch-item binds the invoke port for a line's alignment checks, which run-aligned-line passes on.
  'src/batches/run-batch-item.ts': allBatchLines,
  'src/batches/run-aligned-line.ts': alignedBatchLines,
  // The alignment checks are calls with the line's key through the same port: a check its line's spent
  // scope refuses is test/batches/alignment-check-limits-scenarios.ts (one row per spend scope).
  'src/inference/alignment/evaluate-alignment.ts': alignedBatchLines,
  'src/inference/server-tools/loop-step.ts': ['server-tool step'],
  // Nested calls of server tools (subagent, advisor, fusion) go through the port with the loop's key.
  'src/inference/server-tools/server-tool.ts': ['server-tool step'],
  'src/inference/server-tools/server-tools-deps.ts': ['server-tool step'],
  'src/compose/start-interns.ts': ['intern turn'],
  'src/inference/pipeline/run-inference.ts': { wiring: 'the dialect adapter of the core (chat, responses, messages)' },
  'src/inference/invoke-inference.ts': { wiring: 'the invoke port, implemented over the dialect adapter' },
  'src/inference/embeddings/run-embeddings.ts': { wiring: 'the embeddings adapter of the core' },
  'src/compose/start-inference.ts': { wiring: 'builds the core and binds the invoke port once' },
  'src/compose/build-http-app.ts': { wiring: 'hands the inference handle to the HTTP routes listed above' },
  'src/compose/gateway-parts.ts': { wiring: "the composition root's parts (the inference handle among them)" },
}
