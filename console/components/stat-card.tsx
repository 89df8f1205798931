// One headline number with its label and an optional note on how it was measured.
export function StatCard({ label, value, note }: { label: string; value: string; note?: string | undefined }) {
  return (
    <div class="stat card">
      <span class="label">{label}</span>
      <strong class="value" data-stat={label}>
        {value}
      </strong>
      {note !== undefined && <span class="note muted">{note}</span>}
    </div>
  )
}
