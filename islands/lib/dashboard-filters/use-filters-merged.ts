import { useEffect, useState } from 'react'
import { filtersMergedNowOr, onFiltersMerged } from '../bus.ts'

/**
 * Whether the dashboard's filters are merged into its panel: the page's value (what the server drew, so hydration
 * matches), then the latest change made in edit mode.
 */
export function useFiltersMerged(pageValue: boolean): boolean {
  const [merged, setMerged] = useState(pageValue)
  useEffect(() => {
    setMerged(filtersMergedNowOr(pageValue))
    return onFiltersMerged(setMerged)
  }, [pageValue])
  return merged
}
