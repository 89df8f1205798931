// The intern lifecycle as one transition table. API calls (provision, suspend, destroy) and the events a
// runtime reports (runtime_*) are the only ways to move an intern; anything else is refused with 409
// naming the current state. Until the intern runtime exists, nothing emits runtime events, so a
// provisioned intern waits in `queued` (it is never shown as `running` without a runtime).
import { GatewayError } from '../../domain/errors.ts'

export const internStatuses = [
  'awaiting_chat_install',
  'queued',
  'provisioning',
  'running',
  'failed',
  'stopped',
  'destroying',
  'destroy_failed',
] as const
export type InternStatus = (typeof internStatuses)[number]

export type InternEvent =
  | 'provision'
  | 'suspend'
  | 'destroy'
  | 'runtime_started'
  | 'runtime_needs_chat_install'
  | 'runtime_chat_installed'
  | 'runtime_ready'
  | 'runtime_failed'
  | 'runtime_stopped'
  | 'runtime_destroy_failed'

export const transitions: Readonly<Record<InternStatus, Partial<Readonly<Record<InternEvent, InternStatus>>>>> = {
  awaiting_chat_install: { runtime_chat_installed: 'queued', suspend: 'stopped', destroy: 'destroying' },
  queued: { runtime_started: 'provisioning', runtime_failed: 'failed', suspend: 'stopped', destroy: 'destroying' },
  provisioning: {
    runtime_needs_chat_install: 'awaiting_chat_install',
    runtime_ready: 'running',
    runtime_failed: 'failed',
    suspend: 'stopped',
    destroy: 'destroying',
  },
  running: { runtime_failed: 'failed', runtime_stopped: 'stopped', suspend: 'stopped', destroy: 'destroying' },
  failed: { provision: 'queued', destroy: 'destroying' },
  stopped: { provision: 'queued', destroy: 'destroying' },
  destroying: { runtime_destroy_failed: 'destroy_failed' },
  destroy_failed: { destroy: 'destroying' },
}

export interface InternProgress {
  readonly step_label: string
  readonly step_number: number
  readonly total_steps: number
}

export interface LifecycleState {
  readonly status: InternStatus
  readonly progress: InternProgress | null
  readonly last_failure_message: string | null
}

export interface EventDetail {
  readonly progress?: InternProgress | null
  readonly failureMessage?: string
}

const verbs: Readonly<Record<InternEvent, string>> = {
  provision: 'provisioned',
  suspend: 'suspended',
  destroy: 'deleted',
  runtime_started: 'started',
  runtime_needs_chat_install: 'moved to awaiting_chat_install',
  runtime_chat_installed: 'queued after the chat install',
  runtime_ready: 'marked running',
  runtime_failed: 'marked failed',
  runtime_stopped: 'marked stopped',
  runtime_destroy_failed: 'marked destroy_failed',
}

/** The state after `event`, or a 409 naming the current state. Failures record their message; a new start clears it. */
export function applyInternEvent(state: LifecycleState, event: InternEvent, detail: EventDetail = {}): LifecycleState {
  const next = transitions[state.status][event]
  if (next === undefined) {
    const allowed = Object.keys(transitions[state.status]).filter((name) => !name.startsWith('runtime_'))
    throw new GatewayError(
      'conflict',
      `The intern is ${state.status} and cannot be ${verbs[event]}${allowed.length > 0 ? `; allowed now: ${allowed.join(', ')}` : ''}`,
      {
        metadata: { reason: 'conflict', retryable: false, status: state.status },
      },
    )
  }
  const failed = event === 'runtime_failed' || event === 'runtime_destroy_failed'
  return {
    status: next,
    progress: detail.progress ?? null,
    last_failure_message: failed
      ? (detail.failureMessage ?? 'unknown failure')
      : event === 'provision' || event === 'destroy'
        ? null
        : state.last_failure_message,
  }
}
