// A binary min-heap: push and pop in O(log n). The planner keeps its ready
// set in one, so ordering n steps costs O(n log n), not O(n²).

/** A min-heap under `compare` (negative: `a` comes first). */
export class Heap<T> {
  private readonly items: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(a[i] as T, a[parent] as T) >= 0) break;
      [a[i], a[parent]] = [a[parent] as T, a[i] as T];
      i = parent;
    }
  }

  /** The smallest item, removed; undefined when empty. */
  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < a.length && this.compare(a[l] as T, a[min] as T) < 0) min = l;
      if (r < a.length && this.compare(a[r] as T, a[min] as T) < 0) min = r;
      if (min === i) break;
      [a[i], a[min]] = [a[min] as T, a[i] as T];
      i = min;
    }
    return top;
  }
}
