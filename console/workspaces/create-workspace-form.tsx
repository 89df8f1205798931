// Create a workspace: name, slug (lowercase words joined by hyphens, as the API requires), description.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { TextField } from '../components/form-fields.tsx'
import { useSubmit } from '../components/use-submit.ts'

export function CreateWorkspaceForm({ client, onCreated }: { client: ApiClient; onCreated: () => void }) {
  const [name, setName] = useState('')
  const [slug, setSlug] = useState('')
  const [description, setDescription] = useState('')
  const { busy, error, submit } = useSubmit(async () => {
    await client.send('POST', '/api/v1/workspaces', {
      name: name.trim(),
      slug: slug.trim(),
      description: description.trim() === '' ? null : description.trim(),
    })
    setName('')
    setSlug('')
    setDescription('')
    onCreated()
  })
  return (
    <form class="card form-grid" onSubmit={submit} aria-label="create workspace">
      <h3>Create a workspace</h3>
      <TextField label="Name" value={name} onInput={setName} required maxLength={100} />
      <TextField label="Slug (a-z, 0-9, hyphens)" value={slug} onInput={setSlug} required maxLength={50} />
      <TextField label="Description" value={description} onInput={setDescription} maxLength={500} />
      <ErrorBox message={error} />
      <button type="submit" disabled={busy}>
        Create workspace
      </button>
    </form>
  )
}
