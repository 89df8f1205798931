// Observability for the gateway: destinations, the generation broadcaster and both delivery paths.
// Its stop is registered before anything can enqueue, so records still in memory reach the outbox
// after the HTTP app and the workers have stopped producing them; the group commit, started before it,
// closes after it and so writes the last delivered counts.
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import type { Accounting } from './start-accounting.ts'
import { createObservability, type Observability } from '../observability/create-observability.ts'
import type { Foundation } from './open-foundation.ts'
import type { Shutdown } from './shutdown-stack.ts'

export interface ObservabilityInputs {
  readonly foundation: Foundation
  /** Its group commit writes direct delivery's delivered counts. */
  readonly accounting: Pick<Accounting, 'commits'>
  readonly egress: EgressPolicy
  readonly config: Config
  readonly clock: Clock
  readonly logger: Logger
}

/** Builds observability; its outbox worker is started by the caller once the gateway is assembled. */
export function createGatewayObservability(inputs: ObservabilityInputs, shutdown: Shutdown): Observability {
  const { store, secretBox, changeBus } = inputs.foundation
  const observability = createObservability({
    db: store.db,
    commits: inputs.accounting.commits,
    config: inputs.config,
    clock: inputs.clock,
    secretBox,
    logger: inputs.logger,
    changeBus,
    egress: inputs.egress,
  })
  shutdown.defer('observability delivery', () => observability.stop())
  return observability
}
