// Every migration, in order. A new migration is a new file and one line here; never edit a shipped one.
import type { Migration } from 'kysely'
import * as identity from './0001-identity.ts'
import * as workspacesGuardrails from './0002-workspaces-guardrails.ts'
import * as vaultInterns from './0003-vault-interns.ts'
import * as endUsersPresets from './0004-end-users-presets.ts'
import * as observability from './0005-observability.ts'
import * as ledgerCredits from './0006-ledger-credits.ts'
import * as generations from './0007-generations.ts'
import * as batches from './0008-batches.ts'
import * as privateEndpoints from './0009-private-endpoints.ts'
import * as outboxDeliveredCount from './0010-outbox-delivered-count.ts'
import * as generationUnbilledExcess from './0011-generation-unbilled-excess.ts'
import * as generationListingIndexes from './0012-generation-listing-indexes.ts'
import * as rateLimitRules from './0013-rate-limit-rules.ts'
import * as dailyActivity from './0014-daily-activity.ts'
import * as dailyActivityTotals from './0015-daily-activity-totals.ts'
import * as responseCache from './0016-response-cache.ts'
import * as dailyWorkspaceTotals from './0017-daily-workspace-totals.ts'
import * as activityRollupInCommit from './0018-activity-rollup-in-commit.ts'
import * as partialListingIndexes from './0019-partial-listing-indexes.ts'

export const migrations: Readonly<Record<string, Migration>> = {
  '0001-identity': identity,
  '0002-workspaces-guardrails': workspacesGuardrails,
  '0003-vault-interns': vaultInterns,
  '0004-end-users-presets': endUsersPresets,
  '0005-observability': observability,
  '0006-ledger-credits': ledgerCredits,
  '0007-generations': generations,
  '0008-batches': batches,
  '0009-private-endpoints': privateEndpoints,
  '0010-outbox-delivered-count': outboxDeliveredCount,
  '0011-generation-unbilled-excess': generationUnbilledExcess,
  '0012-generation-listing-indexes': generationListingIndexes,
  '0013-rate-limit-rules': rateLimitRules,
  '0014-daily-activity': dailyActivity,
  '0015-daily-activity-totals': dailyActivityTotals,
  '0016-response-cache': responseCache,
  '0017-daily-workspace-totals': dailyWorkspaceTotals,
  '0018-activity-rollup-in-commit': activityRollupInCommit,
  '0019-partial-listing-indexes': partialListingIndexes,
}
