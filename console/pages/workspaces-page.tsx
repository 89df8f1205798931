// Workspaces: list, create, delete; a workspace's members.
import { useState } from 'preact/hooks'
import type { Workspace } from '../api/types.ts'
import { PagedList } from '../components/paged-list.tsx'
import { ActionButton } from '../components/action-button.tsx'
import { formatTime } from '../format.ts'
import { href } from '../router.ts'
import type { Session } from '../session.ts'
import { CreateWorkspaceForm } from '../workspaces/create-workspace-form.tsx'
import { WorkspaceMembers } from '../workspaces/workspace-members.tsx'

export function WorkspacesPage({ session }: { session: Session }) {
  const { client } = session
  const [version, setVersion] = useState(0)
  const [selected, setSelected] = useState<string | null>(null)
  return (
    <section class="page">
      <h2>Workspaces</h2>
      <CreateWorkspaceForm client={client} onCreated={() => setVersion((value) => value + 1)} />
      <PagedList<Workspace>
        client={client}
        path="/api/v1/workspaces"
        label="workspaces"
        paging={{ style: 'offset' }}
        version={version}
        rowKey={(workspace) => workspace.id}
        columns={[
          { title: 'Name', render: (workspace) => <strong>{workspace.name}</strong> },
          { title: 'Slug', render: (workspace) => <code>{workspace.slug}</code> },
          { title: 'Description', render: (workspace) => workspace.description ?? '—' },
          { title: 'Created', render: (workspace) => formatTime(workspace.created_at) },
          {
            title: 'Actions',
            render: (workspace) => (
              <span class="row-actions">
                <button type="button" class="small" onClick={() => setSelected(workspace.id)}>
                  Members
                </button>
                <a class="small" href={href(['rate-limits'], { workspace_id: workspace.id })}>
                  Rate limits
                </a>
                <ActionButton
                  client={client}
                  method="DELETE"
                  path={`/api/v1/workspaces/${encodeURIComponent(workspace.id)}`}
                  confirmText={`Delete the workspace “${workspace.name}”?`}
                  danger
                  onDone={() => setVersion((value) => value + 1)}
                >
                  Delete
                </ActionButton>
              </span>
            ),
          },
        ]}
      />
      {selected !== null && <WorkspaceMembers key={selected} client={client} workspaceId={selected} />}
    </section>
  )
}
