// A workspace's members, with adding and removing members by user id.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { TextField } from '../components/form-fields.tsx'
import { PagedList } from '../components/paged-list.tsx'
import { useSubmit } from '../components/use-submit.ts'
import { formatTime } from '../format.ts'

interface Member {
  readonly id: string
  readonly user_id: string
  readonly role: string
  readonly created_at: string
}

export function WorkspaceMembers({ client, workspaceId }: { client: ApiClient; workspaceId: string }) {
  const [userIds, setUserIds] = useState('')
  const [version, setVersion] = useState(0)
  const base = `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/members`
  const change = (action: 'add' | 'remove') =>
    useSubmit(async () => {
      const ids = userIds.split(/[\s,]+/).filter((id) => id !== '')
      await client.send('POST', `${base}/${action}`, { user_ids: ids })
      setUserIds('')
      setVersion((value) => value + 1)
    })
  const add = change('add')
  const remove = change('remove')
  return (
    <section class="card" aria-label="members">
      <h3>Members of {workspaceId}</h3>
      <form class="form-grid" onSubmit={add.submit} aria-label="change members">
        <TextField label="User ids (comma-separated)" value={userIds} onInput={setUserIds} required />
        <div class="actions">
          <button type="submit" disabled={add.busy}>
            Add
          </button>
          <button type="button" class="secondary" disabled={remove.busy} onClick={() => remove.submit()}>
            Remove
          </button>
        </div>
        <ErrorBox message={add.error ?? remove.error} />
      </form>
      <PagedList<Member>
        client={client}
        path={base}
        label="members"
        paging={{ style: 'offset' }}
        version={version}
        rowKey={(member) => member.id}
        columns={[
          { title: 'User', render: (member) => <code>{member.user_id}</code> },
          { title: 'Role', render: (member) => member.role },
          { title: 'Since', render: (member) => formatTime(member.created_at) },
        ]}
      />
    </section>
  )
}
