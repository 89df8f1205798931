// Previous / next for a paginated list (offset pages or cursor pages alike: the caller decides what
// "previous" and "next" mean and whether they exist).
interface PagerProps {
  readonly label: string
  readonly onPrevious?: (() => void) | undefined
  readonly onNext?: (() => void) | undefined
}

export function Pager({ label, onPrevious, onNext }: PagerProps) {
  if (onPrevious === undefined && onNext === undefined) return null
  return (
    <nav class="pager" aria-label="pages">
      <button type="button" disabled={onPrevious === undefined} onClick={onPrevious}>
        ← Previous
      </button>
      <span>{label}</span>
      <button type="button" disabled={onNext === undefined} onClick={onNext}>
        Next →
      </button>
    </nav>
  )
}
