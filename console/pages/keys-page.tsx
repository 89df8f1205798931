// Keys: the organization's inference keys; create (the plaintext shown once), edit, disable, delete.
import { useState } from 'preact/hooks'
import type { ApiKey } from '../api/types.ts'
import { CreateKeyForm, type Created } from '../keys/create-key-form.tsx'
import { CreatedKey } from '../keys/created-key.tsx'
import { EditKeyForm } from '../keys/edit-key-form.tsx'
import { KeyList } from '../keys/key-list.tsx'
import type { Session } from '../session.ts'

export function KeysPage({ session }: { session: Session }) {
  const { client } = session
  const [created, setCreated] = useState<Created | null>(null)
  const [editing, setEditing] = useState<ApiKey | null>(null)
  const [version, setVersion] = useState(0)
  const changed = () => setVersion((value) => value + 1)
  return (
    <section class="page">
      <h2>Keys</h2>
      {created !== null && <CreatedKey created={created} onDone={() => setCreated(null)} />}
      {editing !== null && (
        <EditKeyForm
          client={client}
          apiKey={editing}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null)
            changed()
          }}
        />
      )}
      <CreateKeyForm
        client={client}
        onCreated={(value) => {
          setCreated(value)
          changed()
        }}
      />
      <KeyList client={client} version={version} onEdit={setEditing} />
    </section>
  )
}
