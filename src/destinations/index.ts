/** The front door of src/destinations/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { deliver, DeliveryFailed, sendWith } from './deliver.ts'
export { destinationUrl, send } from './http.ts'
export { addressesOf } from './kinds/email.ts'
export type { AlertNotification, DeliveryAnswer, DeliveryTarget } from './notification.ts'
export { sampleNotification } from './sample.ts'
export { destinationJson, destinationSummaryJson, destinationTypeJson } from './serialize.ts'
export { createDestination, deleteDestination, getDestination, listDestinations, saveDestination, testDestination } from './service.ts'
export { findById } from './store.ts'
export { renderAlertPreview, templateJobsWaiting, templateRenderEvents } from './template-pool.ts'
export { TemplateError, TOO_COMPLEX } from './template.ts'
export { destinationTypes } from './types.ts'
