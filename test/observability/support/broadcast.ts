// Hands a crafted trace to the gateway's broadcaster, the one call inference makes after a generation, so a
// delivery test chooses every field of what is delivered instead of shaping it through a real generation.
import type { TestGateway } from '../../support/test-gateway.ts'
import type { GenerationTrace } from '../../../src/observability/generation-trace.ts'

/** The number of records queued for delivery (GenerationBroadcaster.enqueueGeneration). */
export function broadcast(gateway: TestGateway, trace: GenerationTrace): Promise<number> {
  // internals: no API takes a trace; this is the seam between inference and observability.
  return gateway.internals.observability.broadcaster.enqueueGeneration(trace)
}
