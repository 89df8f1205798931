// Workspace budget limits must strictly decrease from the longer window to the shorter one:
// lifetime > monthly > weekly > daily, for every pair that is set.
import type { BudgetInterval } from './schema.ts'

const longestFirst: readonly BudgetInterval[] = ['lifetime', 'monthly', 'weekly', 'daily']

export interface BudgetOrderConflict {
  readonly longer: BudgetInterval
  readonly shorter: BudgetInterval
  readonly longerLimit: number
  readonly shorterLimit: number
}

/** The first pair of limits out of order, or undefined when they strictly decrease. */
export function findBudgetOrderConflict(
  limits: Readonly<Partial<Record<BudgetInterval, number>>>,
): BudgetOrderConflict | undefined {
  for (const [index, longer] of longestFirst.entries()) {
    const longerLimit = limits[longer]
    if (longerLimit === undefined) continue
    for (const shorter of longestFirst.slice(index + 1)) {
      const shorterLimit = limits[shorter]
      if (shorterLimit !== undefined && longerLimit <= shorterLimit)
        return { longer, shorter, longerLimit, shorterLimit }
    }
  }
  return undefined
}
