import { ui } from '../ui.ts'

/** The shared input look without its full width, for controls that sit in a row (`w-full` would outrank any width). */
export const inlineInput = ui.input.replace('block w-full ', '')
