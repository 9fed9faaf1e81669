import { lazy, Suspense, useEffect, useState, type JSX, type ReactNode, type Ref } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { FavoriteStar } from '../FavoriteStar.tsx'
import { ui } from '../ui.ts'
import { MoreMenu, type MenuItem } from './MoreMenu.tsx'
import { NameField } from './NameField.tsx'
import type { PagePermissions, PageQuery, QueryChanges } from './types.ts'

// each dialog brings Radix; it loads when it first opens
const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx'))
const TagsDialog = lazy(() => import('./TagsDialog.tsx').then((m) => ({ default: m.TagsDialog })))
const ApiKeyDialog = lazy(() => import('./ApiKeyDialog.tsx').then((m) => ({ default: m.ApiKeyDialog })))

const t = queryTexts.queryPage
const NEW_QUERY_NAME = queryTexts.editor.newQueryName

type Dialog = 'tags' | 'apiKey' | 'archive' | null

/**
 * The query page header (spec 2 §2): the name (edited in place), draft and archived marks, tags, Edit Source,
 * Publish, and the More menu (Fork, Archive, Manage Permissions, Publish/Unpublish, Show API Key).
 */
export function Header({ query, permissions, autoPublish, save, onVersion, mode = 'view', nameRef, extra }: {
  query: PageQuery
  /** Which of the query's two pages this heads: the results (with Edit Source) or the source (Show Results Only). */
  mode?: 'view' | 'source'
  nameRef?: Ref<HTMLInputElement>
  /** More of the query, after its owner and tags (the source page's refresh schedule). */
  extra?: ReactNode
  permissions: PagePermissions
  autoPublish: boolean
  save: (changes: QueryChanges) => Promise<boolean>
  onVersion: (version: number) => void
}): JSX.Element {
  const [name, setName] = useState(query.name)
  const [dialog, setDialog] = useState<Dialog>(null)
  const [favorite, setFavorite] = useState(query.is_favorite)
  useEffect(() => setName(query.name), [query.name])
  const { canEdit } = permissions

  async function rename() {
    const next = name.trim()
    if (!canEdit || !next || next === query.name) return setName(query.name)
    // spec 2 §4: with autoPublishNamedQueries, naming a draft publishes it
    const publish = autoPublish && query.is_draft && next !== NEW_QUERY_NAME
    if (await save(publish ? { name: next, is_draft: false } : { name: next })) toast(publish ? t.savedAndPublished : t.saved)
    else setName(query.name)
  }

  async function setDraft(isDraft: boolean) {
    if (await save({ is_draft: isDraft })) toast(isDraft ? t.unpublished : t.published)
  }

  async function star(on: boolean) {
    setFavorite(on)
    try {
      await api(on ? 'POST' : 'DELETE', `/api/queries/${query.id}/favorite`)
    } catch {
      setFavorite(!on)
      toast(queryTexts.queries.favoriteFailed, 'error')
    }
  }

  async function fork() {
    try {
      const copy = await api<{ id: number }>('POST', `/api/queries/${query.id}/fork`)
      window.location.assign(`/queries/${copy.id}/source`)
    } catch (error) {
      toast(error instanceof Error ? `${t.forkFailed}: ${error.message}` : t.forkFailed, 'error')
    }
  }

  async function archive() {
    try {
      await api('DELETE', `/api/queries/${query.id}`)
      window.location.assign('/queries')
    } catch {
      toast(t.archiveFailed, 'error')
      setDialog(null)
    }
  }

  const items: MenuItem[] = []
  if (permissions.canFork) items.push({ label: t.fork, onSelect: () => void fork() })
  if (permissions.isOwnerOrAdmin && !query.is_archived) items.push({ label: t.archive, danger: true, onSelect: () => setDialog('archive') })
  items.push({ label: t.managePermissions, disabledReason: t.permissionsLater, onSelect: () => undefined })
  if (canEdit) items.push(query.is_draft ? { label: t.publish, onSelect: () => void setDraft(false) } : { label: t.unpublish, onSelect: () => void setDraft(true) })
  if (permissions.holdsApiKey) items.push({ label: t.showApiKey, onSelect: () => setDialog('apiKey') })

  return (
    <header className="flex flex-col gap-2" data-query-header>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex min-w-0 flex-1 items-center gap-2">
          {favorite !== undefined && <FavoriteStar pressed={favorite} label={queryTexts.queries.favoriteToggle(query.name)} onToggle={() => void star(!favorite)} className="-ml-2" />}
          <NameField value={name} readOnly={!canEdit} onChange={setName} inputRef={nameRef} className="-ml-2 max-w-full [field-sizing:content]" onBlur={() => void rename()} onKeyDown={(e) => {
            if (e.key === 'Enter') e.currentTarget.blur()
            if (e.key === 'Escape') { setName(query.name); e.currentTarget.blur() }
          }} />
          {query.is_draft && !query.is_archived && <span className={ui.badge} data-draft>{t.draft}</span>}
          {query.is_archived && <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-950 dark:text-amber-200">{t.archived}</span>}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {mode === 'source'
            ? <a href={`/queries/${query.id}`} className={ui.secondaryButton}>{t.showResultsOnly}</a>
            : (
              <a href={`/queries/${query.id}/source`} className={ui.secondaryButton}>
                <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="m8 8-4 4 4 4m8-8 4 4-4 4" /></svg>
                {canEdit ? t.editSource : t.viewSource}
              </a>
            )}
          {canEdit && query.is_draft && <button type="button" className={ui.primaryButton} onClick={() => void setDraft(false)}>{t.publish}</button>}
          <MoreMenu items={items} />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-1.5 text-sm text-slate-500 dark:text-slate-400">
        {query.user && (
          <span className="mr-2 flex items-center gap-1.5">
            <img src={query.user.profile_image_url} alt="" className="h-5 w-5 rounded-full" />
            {query.user.name}
          </span>
        )}
        {query.tags.map((tag) => (
          <a key={tag} href={`/queries?tags=${encodeURIComponent(tag)}`} data-tag
            className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-100 dark:bg-indigo-950 dark:text-indigo-300">{tag}</a>
        ))}
        {canEdit && (
          <button type="button" onClick={() => setDialog('tags')}
            className="rounded-full border border-dashed border-slate-300 px-2 py-0.5 text-xs text-slate-500 hover:border-indigo-400 hover:text-indigo-700 dark:border-slate-600 dark:text-slate-400">
            {query.tags.length ? t.editTags : `+ ${t.addTags}`}
          </button>
        )}
        {extra && <span className="ml-2">{extra}</span>}
      </div>
      {query.is_archived && <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">{t.archivedNotice}</p>}
      <Suspense fallback={null}>
        {dialog === 'tags' && <TagsDialog tags={query.tags} onSave={async (tags) => save({ tags })} onClose={() => setDialog(null)} />}
        {dialog === 'apiKey' && <ApiKeyDialog queryId={query.id} canRegenerate={canEdit && permissions.isOwnerOrAdmin} onVersion={onVersion} onClose={() => setDialog(null)} />}
        {dialog === 'archive' && (
          <ConfirmDialog title={t.archiveTitle} body={t.archiveBody} confirm={t.archive} busyLabel={t.archiving} cancel={t.cancel}
            onConfirm={archive} onClose={() => setDialog(null)} />
        )}
      </Suspense>
    </header>
  )
}
