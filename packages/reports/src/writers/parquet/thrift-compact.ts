import type { ByteBuffer } from "./byte-buffer.ts";

/**
 * The part of Thrift's compact protocol that Parquet's page headers and footer use: structs of
 * booleans, i32, i64, strings, structs and lists of them. Field ids are written as deltas from
 * the struct's previous field, as the protocol asks. Values must fit their type.
 */

const TYPE = { true: 1, false: 2, i16: 4, i32: 5, i64: 6, binary: 8, list: 9, struct: 12 } as const;

const zigzag = (value: number) => (value >= 0 ? value * 2 : -value * 2 - 1);

export class ThriftWriter {
  readonly #out: ByteBuffer;
  /** The previous field id of each open struct, innermost last. */
  readonly #lastField: number[] = [0];

  constructor(out: ByteBuffer) {
    this.#out = out;
  }

  #field(id: number, type: number): void {
    const last = this.#lastField.length - 1;
    const delta = id - (this.#lastField[last] as number);
    if (delta > 0 && delta <= 15) this.#out.u8((delta << 4) | type);
    else {
      this.#out.u8(type);
      this.#out.varint(zigzag(id));
    }
    this.#lastField[last] = id;
  }

  #struct(body: () => void): void {
    this.#lastField.push(0);
    body();
    this.#out.u8(0);
    this.#lastField.pop();
  }

  #listHeader(size: number, type: number): void {
    if (size < 15) this.#out.u8((size << 4) | type);
    else {
      this.#out.u8(0xf0 | type);
      this.#out.varint(size);
    }
  }

  #string(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    this.#out.varint(bytes.length);
    this.#out.bytes(bytes);
  }

  /** A whole message: the top-level struct. */
  message(body: () => void): void {
    this.#struct(body);
  }

  bool(id: number, value: boolean): void {
    this.#field(id, value ? TYPE.true : TYPE.false);
  }

  i16(id: number, value: number): void {
    this.#field(id, TYPE.i16);
    this.#out.varint(zigzag(value));
  }

  i32(id: number, value: number): void {
    this.#field(id, TYPE.i32);
    this.#out.varint(zigzag(value));
  }

  i64(id: number, value: number): void {
    this.#field(id, TYPE.i64);
    this.#out.varint(zigzag(value));
  }

  string(id: number, text: string): void {
    this.#field(id, TYPE.binary);
    this.#string(text);
  }

  struct(id: number, body: () => void): void {
    this.#field(id, TYPE.struct);
    this.#struct(body);
  }

  i32List(id: number, values: readonly number[]): void {
    this.#field(id, TYPE.list);
    this.#listHeader(values.length, TYPE.i32);
    for (const value of values) this.#out.varint(zigzag(value));
  }

  stringList(id: number, values: readonly string[]): void {
    this.#field(id, TYPE.list);
    this.#listHeader(values.length, TYPE.binary);
    for (const value of values) this.#string(value);
  }

  structList<T>(id: number, items: readonly T[], body: (item: T) => void): void {
    this.#field(id, TYPE.list);
    this.#listHeader(items.length, TYPE.struct);
    for (const item of items) this.#struct(() => body(item));
  }
}
