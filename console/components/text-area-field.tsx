// A labelled multi-line input (system prompts, JSON settings).
export function TextAreaField({
  label,
  value,
  onInput,
  maxLength,
}: {
  label: string
  value: string
  onInput: (value: string) => void
  maxLength?: number
}) {
  return (
    <label class="wide">
      {label}
      <textarea value={value} maxLength={maxLength} onInput={(event) => onInput(event.currentTarget.value)} />
    </label>
  )
}
