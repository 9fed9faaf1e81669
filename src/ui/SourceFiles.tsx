import type { JSX } from 'react'
import { ui } from '../../islands/lib/ui.ts'

export interface SourceFileView {
  name: string
  table: string
  format: string
  size: number
  uploaded_at: string | null
}

export const sourceFilesTexts = {
  heading: 'Files',
  intro: 'Each file is a table of this source, named after the file. Upload a file with the same name again to replace it.',
  none: 'No files uploaded yet.',
  file: 'File', table: 'Table', size: 'Size', upload: 'Upload', delete: 'Delete', choose: 'Files to upload',
}
const t = sourceFilesTexts

const sizeText = (n: number) =>
  n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} bytes`

/**
 * A Files source's uploads on its page, for admins: the table each file is, and plain forms to add and remove files,
 * so the section needs no script (the forms post to routes/data_sources/[id]/files.tsx and
 * routes/data_sources/[id]/files/[table]/delete.tsx, and come back here).
 */
export function SourceFiles({ sourceId, files, error }: { sourceId: number; files: SourceFileView[]; error?: string }): JSX.Element {
  return (
    <section id="files" aria-labelledby="files-heading" className={`${ui.card} mx-auto mt-6 w-full max-w-xl p-4`}>
      <h2 id="files-heading" className="text-base font-semibold text-slate-900 dark:text-slate-100">{t.heading}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t.intro}</p>
      {error && <p role="alert" className="mt-3 rounded-md border-l-4 border-red-500 bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">{error}</p>}
      {files.length ? (
        <table className="mt-3 w-full text-left text-sm">
          <thead><tr className="text-slate-500"><th className="py-1">{t.file}</th><th>{t.table}</th><th>{t.size}</th><th><span className="sr-only">{t.delete}</span></th></tr></thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.table} className="border-t border-slate-200 dark:border-slate-800">
                <td className="py-2">{f.name}</td>
                <td><code>{f.table}</code></td>
                <td>{sizeText(f.size)}</td>
                <td className="text-right">
                  <form method="post" action={`/data_sources/${sourceId}/files/${encodeURIComponent(f.table)}/delete`}>
                    <button type="submit" className={ui.dangerButton} aria-label={`${t.delete} ${f.name}`}>{t.delete}</button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : <p className="mt-3 text-sm text-slate-500">{t.none}</p>}
      <form method="post" action={`/data_sources/${sourceId}/files`} encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          <span className={ui.label}>{t.choose}</span>
          <input type="file" name="file" multiple required accept=".csv,.tsv,.tab,.txt,.xlsx,.parquet,.pq,.json,.jsonl,.ndjson" className="text-sm" />
        </label>
        <button type="submit" className={ui.primaryButton}>{t.upload}</button>
      </form>
    </section>
  )
}
