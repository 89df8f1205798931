// A new key's plaintext, shown once: the gateway stores only its hash, so closing this loses it.
import { useState } from 'preact/hooks'
import type { Created } from './create-key-form.tsx'

export function CreatedKey({ created, onDone }: { created: Created; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key)
      setCopied('Copied to the clipboard.')
    } catch {
      setCopied('The browser refused the clipboard: select the key and copy it by hand.')
    }
  }
  return (
    <section class="card created" aria-label="new key">
      <h3>Key “{created.data.name}” created</h3>
      <p>Copy it now: it is shown only this once.</p>
      <code class="secret" data-testid="new-key">
        {created.key}
      </code>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done, hide it
        </button>
      </div>
      {copied !== null && <p class="muted">{copied}</p>}
    </section>
  )
}
