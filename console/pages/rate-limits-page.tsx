// Rate-limit rules (issue #39): requests- and tokens-per-minute limits on a key, a workspace, or a
// (key or workspace, model) pair. `#/rate-limits?key_hash=...` or `?workspace_id=...` shows one target's
// rules (the key and workspace pages link here); without either, every rule of the organization. A
// rule's limits are edited in place, in its row.
import { useState } from 'preact/hooks'
import { ActionButton } from '../components/action-button.tsx'
import type { ApiClient } from '../api/api-client.ts'
import { DataTable, type Column } from '../components/data-table.tsx'
import { ErrorBox } from '../components/error-box.tsx'
import { formatTime } from '../format.ts'
import { CreateRuleForm, type RuleTarget } from '../rate-limits/create-rule-form.tsx'
import { EditRuleLimits } from '../rate-limits/edit-rule-limits.tsx'
import { describeLimits, type RateLimitRule } from '../rate-limits/rate-limit-rule.ts'
import { href, type Route } from '../router.ts'
import type { Session } from '../session.ts'
import { useApi } from '../use-api.ts'

function targetOf(route: Route): RuleTarget | null {
  const key = route.params.get('key_hash')
  if (key !== null && key !== '') return { scope: 'key', id: key }
  const workspace = route.params.get('workspace_id')
  if (workspace !== null && workspace !== '') return { scope: 'workspace', id: workspace }
  return null
}

/** Which rule's limits are being edited in its row, and how to start, end or save that. */
interface Editing {
  readonly ruleId: string | null
  start(ruleId: string): void
  end(): void
  saved(): void
}

function ruleColumns(client: ApiClient, changed: () => void, editing: Editing): Column<RateLimitRule>[] {
  return [
    { title: 'On', render: (rule) => (rule.scope === 'key' ? 'key' : 'workspace') },
    {
      title: 'Target',
      render: (rule) => <code>{rule.scope === 'key' ? rule.key_hash : rule.workspace_id}</code>,
    },
    { title: 'Model', render: (rule) => rule.model ?? 'every model' },
    {
      title: 'Limits',
      render: (rule) =>
        editing.ruleId === rule.id ? (
          <EditRuleLimits client={client} rule={rule} onSaved={editing.saved} onCancel={editing.end} />
        ) : (
          describeLimits(rule)
        ),
    },
    { title: 'Updated', render: (rule) => formatTime(rule.updated_at) },
    {
      title: 'Actions',
      render: (rule) => (
        <span class="row-actions">
          {editing.ruleId !== rule.id && (
            <button type="button" class="small" onClick={() => editing.start(rule.id)}>
              Edit limits
            </button>
          )}
          <ActionButton
            client={client}
            method="DELETE"
            path={`/api/v1/rate-limits/${encodeURIComponent(rule.id)}`}
            confirmText="Delete this rate-limit rule?"
            danger
            onDone={changed}
          >
            Delete
          </ActionButton>
        </span>
      ),
    },
  ]
}

/** Which rules the list holds: every rule, a key's, or a workspace's and its keys' (as the API lists them). */
function RulesShown({ target }: { target: RuleTarget | null }) {
  if (target === null) return <>Every rule of the organization.</>
  return (
    <>
      Rules of the {target.scope} <code>{target.id}</code>
      {target.scope === 'workspace' ? ' and of its keys' : ''} (<a href={href(['rate-limits'])}>all rules</a>).
    </>
  )
}

export function RateLimitsPage({ route, session }: { route: Route; session: Session }) {
  const { client } = session
  const target = targetOf(route)
  const query = target === null ? {} : { [target.scope === 'key' ? 'key_hash' : 'workspace_id']: target.id }
  const rules = useApi(
    () => client.get<{ data: readonly RateLimitRule[] }>('/api/v1/rate-limits', query),
    [client, target?.scope, target?.id],
  )
  const [editingId, setEditingId] = useState<string | null>(null)
  const editing: Editing = {
    ruleId: editingId,
    start: setEditingId,
    end: () => setEditingId(null),
    saved: () => {
      setEditingId(null)
      rules.reload()
    },
  }
  return (
    <section class="page">
      <h2>Rate limits</h2>
      <p class="muted">
        <RulesShown target={target} /> Rules apply on top of the configuration&apos;s defaults; a key is held to its own
        rules and its workspace&apos;s.
      </p>
      <CreateRuleForm
        key={`${target?.scope}:${target?.id}`}
        client={client}
        initial={target}
        onCreated={rules.reload}
      />
      <ErrorBox message={rules.error === null ? null : `GET /api/v1/rate-limits: ${rules.error}`} />
      <DataTable<RateLimitRule>
        label="rate-limit rules"
        rows={rules.data?.data ?? []}
        rowKey={(rule) => rule.id}
        empty={rules.loading ? 'Loading…' : 'None.'}
        columns={ruleColumns(client, rules.reload, editing)}
      />
    </section>
  )
}
