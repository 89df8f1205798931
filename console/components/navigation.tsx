// The page list: every page for a management key, the self-service pages for any other key.
import type { Session } from '../session.ts'
import { pages } from '../pages/page-table.tsx'

export function Navigation({ session, current }: { session: Session; current: string }) {
  const visible = pages.filter((page) => (session.isManagement ? page.management : page.selfService))
  return (
    <nav class="side" aria-label="pages">
      {visible.map((page) => (
        <a key={page.name} href={`#/${page.name}`} aria-current={page.name === current ? 'page' : undefined}>
          {page.title}
        </a>
      ))}
    </nav>
  )
}
