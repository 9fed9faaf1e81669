import type { JSX } from 'react'
import type { TypeJson } from '../src/shared/configuration-schema.ts'
import { destinationTexts } from '../src/shared/destination-texts.ts'
import { island } from '../src/shared/island.tsx'
import { CreateByTypeDialog } from './lib/CreateByTypeDialog.tsx'
import { DestinationIcon } from './lib/DestinationIcon.tsx'

/** The create dialog of /destinations/new (spec 3 §2: as data sources'), offering `/api/destinations/types`. */
function NewDestinationDialog({ types }: { types: TypeJson[] }): JSX.Element {
  return <CreateByTypeDialog types={types} texts={destinationTexts} createUrl="/api/destinations" listPath="/destinations" Logo={DestinationIcon} />
}

export default island('NewDestinationDialog', NewDestinationDialog)
