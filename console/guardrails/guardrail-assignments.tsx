// A guardrail's key and member assignments, with assigning and unassigning keys by hash.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { TextField } from '../components/form-fields.tsx'
import { PagedList } from '../components/paged-list.tsx'
import { useSubmit } from '../components/use-submit.ts'
import { formatTime } from '../format.ts'

interface KeyAssignment {
  readonly id: string
  readonly key_hash: string
  readonly key_name: string
  readonly key_label: string
  readonly created_at: string
}

interface MemberAssignment {
  readonly id: string
  readonly user_id: string
  readonly created_at: string
}

export function GuardrailAssignments({ client, guardrailId }: { client: ApiClient; guardrailId: string }) {
  const [hashes, setHashes] = useState('')
  const [version, setVersion] = useState(0)
  const base = `/api/v1/guardrails/${encodeURIComponent(guardrailId)}/assignments`
  const send = (path: string) =>
    useSubmit(async () => {
      await client.send('POST', path, { key_hashes: hashes.split(/[\s,]+/).filter((hash) => hash !== '') })
      setHashes('')
      setVersion((value) => value + 1)
    })
  const assign = send(`${base}/keys`)
  const unassign = send(`${base}/keys/remove`)
  return (
    <section class="card" aria-label="assignments">
      <h3>Assignments of {guardrailId}</h3>
      <form class="form-grid" onSubmit={assign.submit} aria-label="assign keys">
        <TextField label="Key hashes (comma-separated)" value={hashes} onInput={setHashes} required />
        <div class="actions">
          <button type="submit" disabled={assign.busy}>
            Assign
          </button>
          <button type="button" class="secondary" disabled={unassign.busy} onClick={() => unassign.submit()}>
            Unassign
          </button>
        </div>
        <ErrorBox message={assign.error ?? unassign.error} />
      </form>
      <h4>Keys</h4>
      <PagedList<KeyAssignment>
        client={client}
        path={`${base}/keys`}
        label="key assignments"
        paging={{ style: 'offset' }}
        version={version}
        rowKey={(row) => row.id}
        columns={[
          { title: 'Key', render: (row) => `${row.key_name} (${row.key_label})` },
          { title: 'Hash', render: (row) => <code>{row.key_hash.slice(0, 16)}…</code> },
          { title: 'Assigned', render: (row) => formatTime(row.created_at) },
        ]}
      />
      <h4>Members</h4>
      <PagedList<MemberAssignment>
        client={client}
        path={`${base}/members`}
        label="member assignments"
        paging={{ style: 'offset' }}
        rowKey={(row) => row.id}
        columns={[
          { title: 'User', render: (row) => <code>{row.user_id}</code> },
          { title: 'Assigned', render: (row) => formatTime(row.created_at) },
        ]}
      />
    </section>
  )
}
