/**
 * A streaming zip writer for the xlsx download, on node's own zlib. Measured against fflate's `Zip` on a result sheet:
 * native deflate is 4× faster and native CRC-32 12× faster than their JavaScript versions, which took 10 s of CPU for
 * a million rows. Each pushed chunk is deflated on its own and sync-flushed (ends on a byte boundary, no final bit),
 * so the chunks simply concatenate into one valid deflate stream, like pigz's blocks; an empty final block ends it.
 * Entries announce their sizes in a data descriptor after the data, since those are unknown when the entry starts.
 * No zip64: an entry and the archive must stay under 4 GiB (the xlsx writer stops taking rows well before that).
 */
import zlib from 'node:zlib'

const LOCAL_FILE_HEADER = 0x04034b50
const DATA_DESCRIPTOR = 0x08074b50
const CENTRAL_DIRECTORY_HEADER = 0x02014b50
const END_OF_CENTRAL_DIRECTORY = 0x06054b50
const VERSION = 20 // 2.0: deflate
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0008 | 0x0800
const DEFLATE = 8

interface Entry {
  name: Uint8Array
  offset: number
  crc: number
  size: number
  compressedSize: number
}

class Bytes {
  private view: DataView
  readonly bytes: Uint8Array
  private at = 0

  constructor(length: number) {
    this.bytes = new Uint8Array(length)
    this.view = new DataView(this.bytes.buffer)
  }

  u16(value: number): this {
    this.view.setUint16(this.at, value, true)
    this.at += 2
    return this
  }

  u32(value: number): this {
    this.view.setUint32(this.at, value >>> 0, true)
    this.at += 4
    return this
  }

  raw(bytes: Uint8Array): this {
    this.bytes.set(bytes, this.at)
    this.at += bytes.length
    return this
  }
}

/** MS-DOS date and time fields (local time, 2-second steps), as zip headers carry them. */
function dosDateTime(date: Date): [time: number, date: number] {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1)
  return [time, ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate()]
}

export class ZipWriter {
  private offset = 0
  private readonly entries: Entry[] = []
  private current: Entry | null = null
  private readonly modified = dosDateTime(new Date())
  private readonly level: number

  constructor(level: number) {
    this.level = level
  }

  private emit(bytes: Uint8Array): Uint8Array {
    this.offset += bytes.length
    return bytes
  }

  /** Starts an entry; its data follows through `write`, until `endFile`. */
  startFile(path: string): Uint8Array {
    if (this.current) throw new Error('zip: the previous entry is not ended')
    const name = new TextEncoder().encode(path)
    this.current = { name, offset: this.offset, crc: 0, size: 0, compressedSize: 0 }
    const [time, date] = this.modified
    const header = new Bytes(30 + name.length)
      .u32(LOCAL_FILE_HEADER).u16(VERSION).u16(FLAGS).u16(DEFLATE).u16(time).u16(date)
      .u32(0).u32(0).u32(0).u16(name.length).u16(0).raw(name)
    return this.emit(header.bytes)
  }

  write(data: Uint8Array): Uint8Array {
    const entry = this.current!
    entry.crc = zlib.crc32(data, entry.crc)
    entry.size += data.length
    const deflated = zlib.deflateRawSync(data, { level: this.level, finishFlush: zlib.constants.Z_SYNC_FLUSH })
    entry.compressedSize += deflated.length
    return this.emit(deflated)
  }

  endFile(): Uint8Array[] {
    const entry = this.current!
    const last = zlib.deflateRawSync(new Uint8Array(0)) // an empty block with the final bit set
    entry.compressedSize += last.length
    this.current = null
    this.entries.push(entry)
    const descriptor = new Bytes(16).u32(DATA_DESCRIPTOR).u32(entry.crc).u32(entry.compressedSize).u32(entry.size)
    return [this.emit(last), this.emit(descriptor.bytes)]
  }

  /** Central directory and its end record: the archive is complete after these bytes. */
  finish(): Uint8Array {
    const [time, date] = this.modified
    const directoryOffset = this.offset
    const size = this.entries.reduce((sum, entry) => sum + 46 + entry.name.length, 0)
    const out = new Bytes(size + 22)
    for (const entry of this.entries) {
      out.u32(CENTRAL_DIRECTORY_HEADER).u16(VERSION).u16(VERSION).u16(FLAGS).u16(DEFLATE).u16(time).u16(date)
        .u32(entry.crc).u32(entry.compressedSize).u32(entry.size).u16(entry.name.length).u16(0).u16(0)
        .u16(0).u16(0).u32(0).u32(entry.offset).raw(entry.name)
    }
    out.u32(END_OF_CENTRAL_DIRECTORY).u16(0).u16(0).u16(this.entries.length).u16(this.entries.length)
      .u32(size).u32(directoryOffset).u16(0)
    return this.emit(out.bytes)
  }
}
