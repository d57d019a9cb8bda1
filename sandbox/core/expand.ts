// Which E (expandable) fields a request asked for: `expand=price,market_cap` or repeated keys; a
// dotted path (`asset.price`) expands a field of an expanded relation and implies its parent.
export class Expand {
  static readonly none = new Expand([]);
  static readonly all = new Expand([], true);

  private readonly paths: ReadonlySet<string>;

  constructor(
    paths: Iterable<string>,
    private readonly everything = false,
  ) {
    this.paths = new Set(paths);
  }

  has(name: string): boolean {
    if (this.everything || this.paths.has(name)) return true;
    for (const p of this.paths) if (p.startsWith(`${name}.`)) return true;
    return false;
  }

  /** The expansions under `name` (for `asset.price`, `asset` gives an Expand holding `price`). */
  sub(name: string): Expand {
    if (this.everything) return this;
    const prefix = `${name}.`;
    const inner: string[] = [];
    for (const p of this.paths) if (p.startsWith(prefix)) inner.push(p.slice(prefix.length));
    return inner.length ? new Expand(inner) : Expand.none;
  }
}
