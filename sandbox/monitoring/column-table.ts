// Growable struct-of-arrays storage: one typed array per field, all sharing one row count. Keeps a
// scale-50 sandbox (hundreds of thousands of rows) to a few megabytes and free of per-row objects.
export type NumericArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
type NumericArrayCtor = new (length: number) => NumericArray;

export class ColumnTable<K extends string> {
  readonly cols: Record<K, NumericArray>;
  private capacity: number;
  length = 0;

  constructor(
    private readonly spec: Record<K, NumericArrayCtor>,
    capacity: number,
  ) {
    this.capacity = Math.max(16, capacity);
    this.cols = {} as Record<K, NumericArray>;
    for (const key of Object.keys(spec) as K[]) this.cols[key] = new spec[key](this.capacity);
  }

  /** Appends a zero-filled row and returns its index. */
  addRow(): number {
    if (this.length === this.capacity) this.grow();
    return this.length++;
  }

  private grow(): void {
    this.capacity *= 2;
    for (const key of Object.keys(this.spec) as K[]) {
      const next = new this.spec[key](this.capacity);
      next.set(this.cols[key]);
      this.cols[key] = next;
    }
  }
}
