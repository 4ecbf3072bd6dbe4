import type { CellValue, ColumnType, ReportColumn } from "../../columns/column.ts";
import type { JsonTextOf } from "../cell-text.ts";
import { ByteBuffer } from "./byte-buffer.ts";
import { bitWidthOf, writeBitPacked, writeRleHybrid } from "./rle-hybrid.ts";

/**
 * One column's values of the row group being gathered, as the pages Parquet stores them: every
 * column but the booleans dictionary-encoded (a dictionary of its distinct values, then each
 * row's index in it), since report columns repeat a handful of values on many rows.
 */
export interface ColumnChunkBuilder {
  readonly column: ReportColumn;
  /** `PLAIN` values, or `RLE_DICTIONARY` indices into `dictionary`. */
  readonly dictionaryEncoded: boolean;
  add(value: CellValue | undefined): void;
  /** The dictionary page's values (PLAIN) and how many; undefined for a column without one. */
  dictionary(out: ByteBuffer): number | undefined;
  /** The data page's content: definition levels (nullable columns) and the values. */
  data(out: ByteBuffer): void;
  /** Starts the next row group. */
  reset(): void;
}

type Key = string | number;

/** No cell yet: unequal to every cell. */
const NOTHING: unique symbol = Symbol("no cell");
/** The index of a null cell. */
const NULL_INDEX = -1;

/**
 * Dictionary encoding: `keyOf` turns a cell into the dictionary's key (its text, or its number),
 * `undefined` for a null cell (allowed in nullable columns only); the dictionary holds `entryOf`
 * the cell (the key itself when omitted), which `writeEntry` writes PLAIN as the entry is made.
 */
class DictionaryChunk implements ColumnChunkBuilder {
  readonly dictionaryEncoded = true;
  readonly #indexes: Int32Array;
  readonly #defined: Uint8Array | undefined;
  readonly #positions = new Map<Key, number>();
  readonly #keys: Key[] = [];
  /**
   * The dictionary page's values, written as each entry is made: entries kept as strings until
   * the page lived through a row group's collections and were copied out of the young
   * generation (80 MiB of the large account's text), to die in the old one.
   */
  readonly #dictionary = new ByteBuffer(1 << 12);
  /**
   * Per entry, the entry the column changed to after it the last time. A column's values come
   * back in the same order (a resource's principals on each of its capabilities, on resources
   * that share them): the entry expected next is checked before the map, whose look-ups cost a
   * wait on memory.
   */
  readonly #following: Int32Array;
  #rows = 0;
  #values = 0;
  #lastCell: CellValue | undefined | typeof NOTHING = NOTHING;
  #lastIndex = NULL_INDEX;
  /** The entry of the last cell that was not null. */
  #lastEntry = NULL_INDEX;

  constructor(
    readonly column: ReportColumn,
    capacity: number,
    nullable: boolean,
    private readonly keyOf: (value: CellValue | undefined, column: ReportColumn) => Key | undefined,
    private readonly writeEntry: (out: ByteBuffer, entry: Key) => void,
    private readonly entryOf?: (value: CellValue) => Key,
  ) {
    this.#indexes = new Int32Array(capacity);
    this.#following = new Int32Array(capacity);
    this.#defined = nullable ? new Uint8Array(capacity) : undefined;
  }

  add(value: CellValue | undefined): void {
    const row = this.#rows++;
    // Rows repeat the cell of the row before (the analysis time, a principal's ARN and tags).
    if (value !== this.#lastCell) {
      const key = this.keyOf(value, this.column);
      this.#lastCell = value;
      if (key === undefined) this.#lastIndex = NULL_INDEX;
      else {
        const last = this.#lastEntry;
        const expected = last === NULL_INDEX ? NULL_INDEX : (this.#following[last] as number);
        let index: number;
        if (expected !== NULL_INDEX && this.#keys[expected] === key) index = expected;
        else {
          index = this.#positions.get(key) ?? this.#newEntry(key, value as CellValue);
          if (last !== NULL_INDEX) this.#following[last] = index;
        }
        this.#lastEntry = index;
        this.#lastIndex = index;
      }
    }
    if (this.#lastIndex === NULL_INDEX) return; // null: definition level 0, no value
    if (this.#defined) this.#defined[row] = 1;
    this.#indexes[this.#values++] = this.#lastIndex;
  }

  #newEntry(key: Key, value: CellValue): number {
    const index = this.#keys.length;
    this.#keys.push(key);
    this.writeEntry(this.#dictionary, this.entryOf ? this.entryOf(value) : key);
    this.#positions.set(key, index);
    this.#following[index] = NULL_INDEX;
    return index;
  }

  dictionary(out: ByteBuffer): number {
    out.bytes(this.#dictionary.view());
    return this.#keys.length;
  }

  data(out: ByteBuffer): void {
    if (this.#defined) {
      const levels = new ByteBuffer(1024);
      writeRleHybrid(levels, this.#defined, this.#rows, 1);
      out.u32(levels.length);
      out.bytes(levels.view());
    }
    const width = bitWidthOf(this.#keys.length - 1);
    out.u8(width);
    writeRleHybrid(out, this.#indexes, this.#values, width);
  }

  reset(): void {
    this.#rows = 0;
    this.#values = 0;
    this.#positions.clear();
    this.#keys.length = 0;
    this.#dictionary.clear();
    this.#lastCell = NOTHING;
    this.#lastIndex = NULL_INDEX;
    this.#lastEntry = NULL_INDEX;
    this.#defined?.fill(0);
  }
}

class BooleanChunk implements ColumnChunkBuilder {
  readonly dictionaryEncoded = false;
  readonly #values: Uint8Array;
  #rows = 0;

  constructor(
    readonly column: ReportColumn,
    capacity: number,
  ) {
    this.#values = new Uint8Array(capacity);
  }

  add(value: CellValue | undefined): void {
    if (typeof value !== "boolean") throw cellError(this.column, value);
    this.#values[this.#rows++] = value ? 1 : 0;
  }

  dictionary(): undefined {
    return undefined;
  }

  data(out: ByteBuffer): void {
    writeBitPacked(out, this.#values, this.#rows);
  }

  reset(): void {
    this.#rows = 0;
  }
}

function cellError(column: ReportColumn, value: unknown): TypeError {
  const kind = value === null ? "null" : value instanceof Date ? "Date" : typeof value;
  return new TypeError(`Parquet column ${column.name} (${column.type}) cannot hold a ${kind}`);
}

const stringKey = (value: CellValue | undefined, column: ReportColumn) => {
  if (typeof value !== "string") throw cellError(column, value);
  return value;
};

const integerKey = (value: CellValue | undefined, column: ReportColumn) => {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw cellError(column, value);
  return value;
};

const timestampKey = (value: CellValue | undefined, column: ReportColumn) => {
  if (value === undefined) return undefined;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw cellError(column, value);
  return value.getTime();
};

/**
 * JSON cells, keyed by the objects they are, not by their text: a record (a principal's or a
 * resource's tags) by itself, a list of objects by the objects it holds. The rows of a large
 * account carry 5 M lists of granting policies, new arrays of a few shared policy objects, and
 * tags objects shared by every row of their principal or resource; turning each cell into text
 * cost 7 s. Cells of the same objects are one dictionary entry, made once per row group: a list
 * of objects as its objects' texts, each made once. Rows are not changed while they are written.
 * Other cells (lists of strings) key by their text. (Two cells of equal text but different
 * objects become two entries of the same text: valid.)
 */
function jsonCells(json: JsonTextOf) {
  const numbers = new WeakMap<object, number>();
  const texts = new WeakMap<object, string>();
  let count = 0;
  const numberOf = (item: object) => {
    let n = numbers.get(item);
    if (n === undefined) {
      n = count++;
      numbers.set(item, n);
    }
    return n;
  };
  const textOf = (item: object) => {
    let text = texts.get(item);
    if (text === undefined) {
      text = json(item);
      texts.set(item, text);
    }
    return text;
  };
  const keyOf = (value: CellValue | undefined, column: ReportColumn): Key => {
    if (typeof value !== "object" || value === null || value instanceof Date)
      throw cellError(column, value);
    // No JSON text starts with `@` or `#`.
    if (!Array.isArray(value)) return `@${numberOf(value)}`;
    if (value.length === 0) return "[]";
    let key = "#";
    for (const item of value as readonly unknown[]) {
      if (typeof item !== "object" || item === null) return json(value);
      key += `${numberOf(item)},`;
    }
    return key;
  };
  /** `JSON.stringify` of the cell; a list of objects joins the texts of its objects. */
  const entryOf = (value: CellValue): Key => {
    if (!Array.isArray(value) || value.length === 0) return json(value as object);
    let text = "[";
    for (const item of value as readonly unknown[]) {
      if (typeof item !== "object" || item === null) return json(value);
      text += text.length === 1 ? textOf(item) : `,${textOf(item)}`;
    }
    return `${text}]`;
  };
  return { keyOf, entryOf };
}

const writeText = (out: ByteBuffer, key: Key) => out.lengthPrefixedUtf8(key as string);
const writeInt64 = (out: ByteBuffer, key: Key) => out.i64(key as number);

/** The chunk builder of a column of `type`, for row groups of up to `capacity` rows. */
export function columnChunkBuilder(
  column: ReportColumn,
  capacity: number,
  json: JsonTextOf,
): ColumnChunkBuilder {
  const type: ColumnType = column.type;
  switch (type) {
    case "boolean":
      return new BooleanChunk(column, capacity);
    case "string":
      return new DictionaryChunk(column, capacity, false, stringKey, writeText);
    case "json": {
      const { keyOf, entryOf } = jsonCells(json);
      return new DictionaryChunk(column, capacity, false, keyOf, writeText, entryOf);
    }
    case "integer":
      return new DictionaryChunk(column, capacity, false, integerKey, writeInt64);
    case "timestamp":
      return new DictionaryChunk(column, capacity, true, timestampKey, writeInt64);
  }
}
