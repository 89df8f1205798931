// What a create body resolves to: the model it serves (a catalog model or a new one), the upstream API
// family, and the fingerprint that an Idempotency-Key replay is compared by.
import { createHash } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import { providerApis, type ProviderApi } from '../../domain/inference/provider-api.ts'
import type { CreatePrivateEndpointBody } from './schema.ts'

export function resolveModel(
  slug: string,
  describe: (slug: string) => { readonly name: string; readonly kind: 'text' | 'embedding' } | undefined,
): { name: string } {
  const known = describe(slug)
  if (known === undefined) return { name: slug }
  if (known.kind !== 'text')
    throw new GatewayError(
      'invalid_request',
      `Model "${slug}" is an embedding model; private endpoints serve text models`,
    )
  return { name: known.name }
}

/**
 * A configured provider slug lends its API and name; otherwise the slug must name an API family, named
 * by `familyName` (the provider registry's, passed in by the composition).
 */
export function resolveProvider(
  slug: string,
  describe: (slug: string) => { readonly name: string; readonly api: ProviderApi } | undefined,
  familyName: (api: ProviderApi) => string,
): { name: string; api: ProviderApi } {
  const configured = describe(slug)
  if (configured !== undefined) return { name: configured.name, api: configured.api }
  const family = providerApis.find((api) => api === slug)
  if (family !== undefined) return { name: familyName(family), api: family }
  throw new GatewayError(
    'invalid_request',
    `Unknown provider_slug "${slug}": use one of ${providerApis.join(', ')} or a configured provider slug`,
    { metadata: { reason: 'provider_not_found' } },
  )
}

/** The fields a replay must repeat (api-reference §7.2): `activate` and `api_key` are not compared. */
export function createFingerprint(body: CreatePrivateEndpointBody): string {
  const compared = [
    body.model_permaslug,
    body.provider_slug,
    body.base_url.replace(/\/+$/, ''),
    body.upstream_model_id,
    body.declared_zdr ?? null,
    body.declared_region ?? null,
    body.pricing.prompt,
    body.pricing.completion,
  ]
  return createHash('sha256').update(JSON.stringify(compared)).digest('hex')
}
