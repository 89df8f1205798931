// The limit settings of a stored key, in the shape the reservation plan and key usage take.
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { KeyLimitSettings } from './reservation-plan.ts'

export function keyLimitSettings(key: ApiKeyRecord): KeyLimitSettings {
  return {
    limit: key.limitUsd === null ? null : Number(key.limitUsd),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
  }
}
