// What the server-tool loop needs beyond the inference pipeline's own dependencies.
import type { ServerToolsSetting } from '../../config/server-tools-config.ts'
import type { EgressPolicy } from '../../http/egress-policy.ts'
import type { InvokePort } from '../call/invoke-port.ts'

export interface ServerToolsDeps {
  readonly settings: ServerToolsSetting
  readonly egress: EgressPolicy
  /** The call core's invoke port, for nested model calls. */
  readonly invoke: InvokePort
}
