// What the server-tool loop needs beyond the inference pipeline's own dependencies.
import type { ServerToolsSetting } from '../../config/server-tools-config.ts'
import type { EgressPolicy } from '../../http/egress-policy.ts'
import type { InvokeInput, InvokeResult } from '../invoke-inference.ts'

export interface ServerToolsDeps {
  readonly settings: ServerToolsSetting
  readonly egress: EgressPolicy
  /** invokeInference bound to the gateway's dialects and deps, for nested model calls. */
  invoke(input: InvokeInput): Promise<InvokeResult>
}
