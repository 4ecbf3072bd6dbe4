/** Small seeded PRNG (mulberry32) so every run builds the same accounts. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)] as T;
  }

  /** Skewed towards the start of the list, as popular policies are in real accounts. */
  pickSkewed<T>(list: readonly T[]): T {
    return list[Math.floor(list.length * this.next() ** 3)] as T;
  }
}
