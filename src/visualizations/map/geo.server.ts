/**
 * The server reads map shapes from the files the product ships (src/ui/static/maps/, the same ones the browser
 * fetches from /static/maps/), so server rendering needs no network. Importing this module registers the reader.
 */
import fs from 'node:fs'
import { findMap } from './catalogue.ts'
import { setGeometryReader } from './geometry.ts'

const MAPS_DIR = new URL('../../ui/static/maps/', import.meta.url)

setGeometryReader((id) => {
  // only catalogue ids reach the file system, so an option value can never name another file
  const map = findMap(id)
  if (!map) throw new Error(`Unknown map: ${id}`)
  return JSON.parse(fs.readFileSync(new URL(`${map.id}.json`, MAPS_DIR), 'utf8'))
})
