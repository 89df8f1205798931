// Every page of the console: its route name, title, who sees it, and what it renders.
import type { ComponentChildren } from 'preact'
import type { Route } from '../router.ts'
import type { Session } from '../session.ts'
import { GenerationsPage } from './generations-page.tsx'
import { KeysPage } from './keys-page.tsx'
import { ModelsPage } from './models-page.tsx'
import { OverviewPage } from './overview-page.tsx'
import { WorkspacesPage } from './workspaces-page.tsx'
import { GuardrailsPage } from './guardrails-page.tsx'
import { PresetsPage } from './presets-page.tsx'
import { ObservabilityPage } from './observability-page.tsx'
import { PrivateEndpointsPage } from './private-endpoints-page.tsx'
import { BatchesPage } from './batches-page.tsx'
import { InternsPage } from './interns-page.tsx'
import { RateLimitsPage } from './rate-limits-page.tsx'

export interface Page {
  readonly name: string
  readonly title: string
  /** Shown to management keys. */
  readonly management: boolean
  /** Shown to inference keys (the read-only self-service view). */
  readonly selfService: boolean
  readonly render: (route: Route, session: Session) => ComponentChildren
}

/** A page that every management key sees, and inference keys too when `selfService`. */
function page(
  name: string,
  title: string,
  selfService: boolean,
  render: (session: Session) => ComponentChildren,
): Page {
  return { name, title, management: true, selfService, render: (_route, session) => render(session) }
}

export const pages: readonly Page[] = [
  {
    name: 'overview',
    title: 'Overview',
    management: true,
    selfService: true,
    render: (route, session) => <OverviewPage route={route} session={session} />,
  },
  {
    name: 'keys',
    title: 'Keys',
    management: true,
    selfService: false,
    render: (_route, session) => <KeysPage session={session} />,
  },
  {
    name: 'generations',
    title: 'Generations',
    management: true,
    selfService: true,
    render: (route, session) => <GenerationsPage route={route} session={session} />,
  },
  {
    name: 'models',
    title: 'Models',
    management: true,
    selfService: true,
    render: (route, session) => <ModelsPage route={route} session={session} />,
  },
  page('workspaces', 'Workspaces', false, (session) => <WorkspacesPage session={session} />),
  page('guardrails', 'Guardrails', false, (session) => <GuardrailsPage session={session} />),
  {
    name: 'rate-limits',
    title: 'Rate limits',
    management: true,
    selfService: false,
    render: (route, session) => <RateLimitsPage route={route} session={session} />,
  },
  page('presets', 'Presets', true, (session) => <PresetsPage session={session} />),
  page('observability', 'Observability', false, (session) => <ObservabilityPage session={session} />),
  page('private-endpoints', 'Private endpoints', false, (session) => <PrivateEndpointsPage session={session} />),
  page('batches', 'Batches', true, (session) => <BatchesPage session={session} />),
  page('interns', 'Interns and vault', true, (session) => <InternsPage session={session} />),
]

/** The page of a route name; the overview for `#/` and for names the signed-in key does not see. */
export function pageFor(name: string, session: Session): Page {
  const found = pages.find((page) => page.name === name && (session.isManagement ? page.management : page.selfService))
  return found ?? pages[0]!
}
