// The last step of every call: the held end of the answer leaves once the call's ledger rows and
// generation record are committed (`settlements.durable`, the store's group commit), so that a client
// that saw the whole answer was billed for it and can look it up, even if the process dies right after.
import type { DurableSettlements } from '../../accounting/durable-settlements.ts'

export async function deliverWhenDurable(
  answer: { deliver(): void },
  settlements: DurableSettlements,
  generationId: string,
): Promise<void> {
  try {
    await settlements.durable(generationId)
  } finally {
    answer.deliver()
  }
}
