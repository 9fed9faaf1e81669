import type { JSX, RefObject } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { useSourcePage } from '../editor/use-source-page.ts'
import { Header } from '../query-page/Header.tsx'
import { NameField } from '../query-page/NameField.tsx'
import { ScheduleControl } from '../query-page/ScheduleControl.tsx'
import type { SourcePage } from '../query-page/types.ts'

const t = queryTexts.editor

/**
 * Above the editor: a saved query's header, as on its page (name, tags, schedule, the menu), or a new query's name
 * alone until its first save; then, for a viewer who may not edit, that the page is read-only.
 */
export function TitleRow({ page, sourcePage, name, canEdit, nameField, onName }: {
  page: SourcePage
  sourcePage: ReturnType<typeof useSourcePage>
  name: string
  canEdit: boolean
  nameField: RefObject<HTMLInputElement | null>
  onName(name: string): void
}): JSX.Element {
  const { query, header } = sourcePage
  return (
    <>
      {query
        ? <Header query={query} permissions={page.permissions} autoPublish={page.autoPublishNamedQueries}
          save={header.save} onVersion={header.adoptVersion} mode="source" nameRef={nameField}
          extra={<ScheduleControl schedule={query.schedule} canSchedule={page.permissions.canSchedule && !query.is_archived}
            intervals={page.refreshIntervals} save={(next) => header.save({ schedule: next })} />} />
        : <div className="flex items-center gap-3"><NameField value={name} readOnly={!canEdit} onChange={onName} inputRef={nameField} className="flex-1" /></div>}
      {!canEdit && <p className="rounded-md border border-slate-200 bg-slate-100 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300">{t.readOnly}</p>}
    </>
  )
}
