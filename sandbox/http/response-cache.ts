// Serialized responses by URL, valid for one epoch of the world (any clock advance clears it), with
// a byte budget so big chart pages cannot take all memory.
export interface CachedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export class ResponseCache {
  private entries = new Map<string, CachedResponse>();
  private bytes = 0;
  private epoch = -1;

  constructor(private readonly maxBytes = 128 * 1024 * 1024) {}

  get(epoch: number, key: string): CachedResponse | undefined {
    if (epoch !== this.epoch) this.reset(epoch);
    return this.entries.get(key);
  }

  set(epoch: number, key: string, value: CachedResponse): void {
    if (epoch !== this.epoch) this.reset(epoch);
    if (value.body.length > this.maxBytes / 4) return;
    while (this.bytes + value.body.length > this.maxBytes && this.entries.size) {
      const [oldest, old] = this.entries.entries().next().value as [string, CachedResponse];
      this.entries.delete(oldest);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, value);
    this.bytes += value.body.length;
  }

  private reset(epoch: number): void {
    this.entries.clear();
    this.bytes = 0;
    this.epoch = epoch;
  }
}
