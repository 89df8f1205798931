import { Type, type Static } from 'typebox'

export const secretNamePattern = '^(?!.*__)[a-z]([a-z0-9_]*[a-z0-9])?$'
export const uuidPattern = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'

const SecretName = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: secretNamePattern,
  description: 'Lowercase letters, digits and single underscores',
})

export const SecretParams = Type.Object({ name: SecretName })
export const InternParams = Type.Object({ internId: Type.String({ maxLength: 36, pattern: uuidPattern }) })
export const InternSecretParams = Type.Object({
  internId: Type.String({ maxLength: 36, pattern: uuidPattern }),
  name: SecretName,
})

export const VaultPageQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 100)' })),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10000, description: 'Items to skip, 0 to 10000 (default 0)' }),
    ),
  },
  { additionalProperties: false },
)

export const SecretWriteBody = Type.Object(
  {
    hosts: Type.Array(Type.String({ maxLength: 254 }), {
      minItems: 1,
      maxItems: 100,
      description: 'Exact host names the value is released to',
    }),
    value: Type.String({ minLength: 1, maxLength: 65536, description: 'Write-only; never returned' }),
  },
  { additionalProperties: false },
)

export const CopyBody = Type.Object(
  {
    names: Type.Array(SecretName, {
      minItems: 1,
      maxItems: 100,
      description: 'Workspace secret names, each listed once',
    }),
  },
  { additionalProperties: false },
)

export const VaultSecret = Type.Object({
  name: Type.String(),
  hosts: Type.Union([Type.Array(Type.String()), Type.Null()]),
  fingerprint: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
})

export const EffectiveSecret = Type.Object({
  name: Type.String(),
  hosts: Type.Union([Type.Array(Type.String()), Type.Null()]),
  fingerprint: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  scope: Type.Enum(['intern', 'attached', 'workspace']),
})

export const VaultSecretList = Type.Object({ data: Type.Array(VaultSecret), has_more: Type.Boolean() })
export const EffectiveSecretList = Type.Object({ data: Type.Array(EffectiveSecret), has_more: Type.Boolean() })

export type VaultSecret = Static<typeof VaultSecret>
export type EffectiveSecret = Static<typeof EffectiveSecret>
export type SecretWriteBody = Static<typeof SecretWriteBody>
export type VaultPageQuery = Static<typeof VaultPageQuery>
