// The API's error message, as it said it.
export function ErrorBox({ message }: { message: string | null | undefined }) {
  if (message === null || message === undefined) return null
  return (
    <p class="error" role="alert">
      {message}
    </p>
  )
}
