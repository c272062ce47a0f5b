type Numeric = Float64Array | Uint32Array | Int32Array | Uint8Array;

/**
 * A typed array appended to one value at a time, doubling as it fills: a million numbers in a
 * JS array of boxed values cost several times their eight bytes each, and a worker holds a
 * run's columns until its transaction ends.
 */
export class Growing<T extends Numeric> {
  private array: T;
  length = 0;

  constructor(
    private readonly make: (capacity: number) => T,
    capacity = 256,
  ) {
    this.array = make(capacity);
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = this.make(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }

  at(i: number): number {
    return this.array[i]!;
  }

  /** The values so far, without a copy (valid until the next push). */
  values(): T {
    return this.array.subarray(0, this.length) as T;
  }
}

export const float64s = () => new Growing((n) => new Float64Array(n));
export const uint32s = () => new Growing((n) => new Uint32Array(n));
export const int32s = () => new Growing((n) => new Int32Array(n));
export const bytes = () => new Growing((n) => new Uint8Array(n));

/** The bytes under a typed array, without a copy. */
export const bytesOf = (array: ArrayBufferView) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
