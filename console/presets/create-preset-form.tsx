// Create a preset, or the next version of one, from the settings of a request body (the API's
// POST /api/v1/presets/{slug}/chat/completions, /responses or /messages; no inference runs). The slug
// input carries the API's slug rule; the API refuses a body without any setting, and the form shows why.
import { useState } from 'preact/hooks'
import type { ApiClient } from '../api/api-client.ts'
import { ErrorBox } from '../components/error-box.tsx'
import { SelectField, TextField, optionalNumber } from '../components/form-fields.tsx'
import { TextAreaField } from '../components/text-area-field.tsx'
import { useSubmit } from '../components/use-submit.ts'
import type { Preset } from './preset.ts'
import {
  parseExtraSettings,
  presetBody,
  presetFormatOptions,
  presetFormatPaths,
  type PresetFormat,
} from './preset-body.ts'

interface CreatePresetFormProps {
  readonly client: ApiClient
  /** A preset's slug to add a version to; empty for a new preset. */
  readonly slug: string
  readonly onCreated: (preset: Preset) => void
}

export function CreatePresetForm({ client, slug: initialSlug, onCreated }: CreatePresetFormProps) {
  const [slug, setSlug] = useState(initialSlug)
  const [format, setFormat] = useState<string>('chat')
  const [model, setModel] = useState('')
  const [systemPrompt, setSystemPrompt] = useState('')
  const [temperature, setTemperature] = useState('')
  const [maxTokens, setMaxTokens] = useState('')
  const [extra, setExtra] = useState('')
  const { busy, error, submit } = useSubmit(async () => {
    const chosen = format as PresetFormat
    const body = presetBody(chosen, {
      model: model.trim(),
      systemPrompt,
      temperature: optionalNumber(temperature),
      maxTokens: optionalNumber(maxTokens),
      extra: parseExtraSettings(extra),
    })
    const path = `/api/v1/presets/${encodeURIComponent(slug.trim())}/${presetFormatPaths[chosen]}`
    onCreated((await client.send<{ data: Preset }>('POST', path, body)).data)
  })
  return (
    <form class="card form-grid" onSubmit={submit} aria-label="create preset">
      <h3>{initialSlug === '' ? 'Create a preset' : `New version of ${initialSlug}`}</h3>
      <TextField
        label="Slug (a-z, 0-9, hyphens)"
        value={slug}
        onInput={setSlug}
        required
        maxLength={64}
        pattern="[a-z0-9]+(-[a-z0-9]+)*"
        title="lowercase letters, digits and single inner hyphens"
      />
      <SelectField label="Request format" value={format} onChange={setFormat} options={presetFormatOptions} />
      <TextField label="Model" value={model} onInput={setModel} placeholder="openai/gpt-4o" />
      <TextField
        label="Temperature (0–2)"
        type="number"
        min={0}
        max={2}
        step="any"
        value={temperature}
        onInput={setTemperature}
      />
      <TextField label="Max output tokens" type="number" min={1} step="1" value={maxTokens} onInput={setMaxTokens} />
      <TextAreaField label="System prompt" value={systemPrompt} onInput={setSystemPrompt} />
      <TextAreaField label="Other settings (JSON object, optional)" value={extra} onInput={setExtra} />
      <ErrorBox message={error} />
      <button type="submit" disabled={busy}>
        {initialSlug === '' ? 'Create preset' : 'Add version'}
      </button>
    </form>
  )
}
