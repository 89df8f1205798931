// The usage fields of many keys from the spend counters, in one counters read (no ledger scan).
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { SpendCounters } from '../counters/spend-counters.ts'
import { keyUsage, keyUsageScopeIds, type KeyUsageFields } from './key-usage.ts'
import { keyLimitSettings } from './key-limit-settings.ts'

export async function readKeysUsage(
  counters: SpendCounters,
  keys: readonly ApiKeyRecord[],
  clock: Clock,
): Promise<Map<string, KeyUsageFields>> {
  const ids = keys.flatMap((key) => keyUsageScopeIds(key.hash, clock))
  const balances = ids.length === 0 ? new Map() : await counters.read(ids)
  return new Map(keys.map((key) => [key.hash, keyUsage(key.hash, keyLimitSettings(key), balances, clock)]))
}
