import { useEffect, useState } from 'react'

// The grid and its virtualiser are needed only once a result arrives, so they stay out of a page's first download
// (the editor's budget is 250 KB gzipped); the editor starts loading them as an execution starts.
// Not React.lazy: that suspends even when the module is already here, and React holds a suspended reveal back
// for up to 300 ms, which would show in the time from a result's arrival to its rows.
type GridModule = typeof import('./ResultsTable.tsx')
let gridModule: GridModule | null = null
const loadGrid = () => import('./ResultsTable.tsx').then((m) => (gridModule = m))

/** Start loading the grid now (an execution started, a table tab is about to show). */
export const preloadResultsGrid = () => void loadGrid()

/** The grid component once its module is here (at once when it was preloaded), loading it when `wanted`. */
export function useResultsGrid(wanted: boolean): GridModule['ResultsGrid'] | null {
  const [grid, setGrid] = useState(() => gridModule)
  useEffect(() => {
    if (wanted && !grid) void loadGrid().then(setGrid)
  }, [wanted, grid])
  return (grid ?? gridModule)?.ResultsGrid ?? null
}
