import { createContext, type ComponentType } from 'react'
import type { ChartView } from './ChartView.tsx'

/**
 * The chart component the result area draws non-table tabs with, given by the page: the query page's own, which
 * hydrates charts the server drew, or the editor's, loaded when a chart is first shown (the editor draws none on
 * the server), which keeps it out of the editor's first download.
 */
export const ChartViewSlot = createContext<ComponentType<Parameters<typeof ChartView>[0]> | null>(null)
