import type { JSX } from 'react'
import type { TypeJson } from '../src/shared/configuration-schema.ts'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { CreateByTypeDialog } from './lib/CreateByTypeDialog.tsx'
import { DataSourceLogo } from './lib/DataSourceLogo.tsx'

/** The create dialog of /data_sources/new (spec 3 §2 and §4), offering the `/api/data_sources/types` answer. */
function NewDataSourceDialog({ types }: { types: TypeJson[] }): JSX.Element {
  return <CreateByTypeDialog types={types} texts={texts.dataSources} createUrl="/api/data_sources" listPath="/data_sources" Logo={DataSourceLogo} />
}

export default island('NewDataSourceDialog', NewDataSourceDialog)
