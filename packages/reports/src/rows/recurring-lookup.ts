const NONE = -1;

/**
 * A look-up by text for keys that come back in the same order. The rows of a large account name
 * their principals in runs that recur: every capability of a resource lists the same principals,
 * and resources share groups of principals. Each key remembers the key that followed it the last
 * time; a key that follows as remembered is answered by that comparison alone. Other keys go
 * through a map, whose look-up in a large account costs a wait on memory (about 150 ns) rather
 * than computing, and the order is learnt anew. `find` must give a key the same answer each time.
 */
export class RecurringLookup<V> {
  readonly #find: (key: string) => V;
  readonly #maxKeys: number;
  readonly #keys: string[] = [];
  readonly #values: V[] = [];
  /** The place of the key that followed each key the last time. */
  readonly #following: number[] = [];
  readonly #places = new Map<string, number>();
  #previous = NONE;
  #expected = NONE;

  /** `maxKeys`: the keys remembered before it forgets them all and starts again. */
  constructor(find: (key: string) => V, maxKeys = 1 << 20) {
    this.#find = find;
    this.#maxKeys = maxKeys;
  }

  get(key: string): V {
    const expected = this.#expected;
    if (expected !== NONE && this.#keys[expected] === key) {
      this.#previous = expected;
      this.#expected = this.#following[expected] as number;
      return this.#values[expected] as V;
    }
    let place = this.#places.get(key);
    if (place === undefined) {
      const value = this.#find(key);
      if (this.#keys.length >= this.#maxKeys) this.#clear();
      place = this.#keys.length;
      this.#keys.push(key);
      this.#values.push(value);
      this.#following.push(NONE);
      this.#places.set(key, place);
    }
    if (this.#previous !== NONE) this.#following[this.#previous] = place;
    this.#previous = place;
    this.#expected = this.#following[place] as number;
    return this.#values[place] as V;
  }

  #clear(): void {
    this.#keys.length = 0;
    this.#values.length = 0;
    this.#following.length = 0;
    this.#places.clear();
    this.#previous = NONE;
  }
}
