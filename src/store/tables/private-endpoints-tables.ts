// Private (customer-hosted) endpoints. Conventions as in database.ts: text ids, ISO 8601 UTC text
// timestamps, integer 0/1 booleans, JSON as text, prices as decimal strings.
import type { Selectable } from 'kysely'

export interface PrivateEndpointTable {
  id: string
  organization_id: string
  /** The workspace it is active in (set on activation); null for drafts never activated. */
  workspace_id: string | null
  model_permaslug: string
  model_name: string
  provider_slug: string
  provider_name: string
  /** The upstream API family: openai-chat | openai-responses | anthropic | gemini. */
  api: string
  upstream_model_id: string
  base_url: string
  /** global | europe | us, or null (undeclared). */
  declared_region: string | null
  /** 0/1, or null (undeclared). */
  declared_zdr: number | null
  pricing_prompt: string
  pricing_completion: string
  /** draft | active | disabled. */
  status: string
  /** The upstream credential sealed with the SecretBox; never returned. */
  credential: string | null
  /** JSON of the last EndpointValidation, cleared by any change to a draft. */
  validation: string | null
  validated_at: string | null
  validated_workspace_id: string | null
  /** The `revision` the validation ran against. */
  validated_revision: number | null
  /** Incremented by every change to the endpoint's definition. */
  revision: number
  ever_activated: number
  idempotency_key: string | null
  /** SHA-256 of the compared create fields. */
  idempotency_fingerprint: string | null
  created_at: string
  updated_at: string
}

export type PrivateEndpointRow = Selectable<PrivateEndpointTable>
