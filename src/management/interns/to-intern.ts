// A stored intern row -> the wire Intern object (snake_case, bare, as the SDK parses it).
import type { InternRow } from '../../store/repositories/interns-repository.ts'
import type { InternStatus, LifecycleState } from './intern-lifecycle.ts'
import type { Intern } from './schema.ts'

export function toIntern(row: InternRow): Intern {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    model: row.model,
    hostname: row.hostname,
    status: row.status as InternStatus,
    progress: row.progress === null ? null : (JSON.parse(row.progress) as Intern['progress']),
    last_failure_message: row.last_failure_message,
    vault_id: row.vault_id,
    attached_vault_id: row.attached_vault_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function lifecycleOf(row: InternRow): LifecycleState {
  return {
    status: row.status as InternStatus,
    progress: row.progress === null ? null : JSON.parse(row.progress),
    last_failure_message: row.last_failure_message,
  }
}

export function lifecycleColumns(
  state: LifecycleState,
): Pick<InternRow, 'status' | 'progress' | 'last_failure_message'> {
  return {
    status: state.status,
    progress: state.progress === null ? null : JSON.stringify(state.progress),
    last_failure_message: state.last_failure_message,
  }
}
