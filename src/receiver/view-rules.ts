// Which view a delivery may be for, and with which secret. A delivery for a view the mirror does not
// mirror is refused (its development would otherwise wait in the details backlog and cost a request
// that answers 404); one signed with a secret bound to another view is refused as a forgery would be.
// Views and secrets are named by id or slug; slugs are resolved through the mirrored monitoring_views,
// read again (at most once a minute) while a configured name is not known. The rules fail closed: a name
// that does not resolve (a slug renamed at the service, a typo, a view not mirrored yet) stands for no
// view, so it lets no delivery in and its secret signs for none; the other views are checked as ever.
import type { Store } from '../store/types.js';

export type ViewRefusal = 'view_not_configured' | 'wrong_view_secret';

export interface ViewRulesOptions {
  /** The configured monitoring views (ids or slugs); none: deliveries for any view are taken. */
  views: readonly string[];
  /** For each secret of the verifier, in order: the view (id or slug) it is bound to, or null for a shared one. */
  secretViews: readonly (string | null)[];
  now?: () => number;
}

const REREAD_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Each mirrored view's slug, with its id. */
async function mirroredSlugs(store: Store): Promise<Map<string, string>> {
  const rows = await store.db.selectFrom('monitoring_views').select(['id', 'slug']).execute();
  return new Map(rows.filter((r) => r.slug !== null).map((r) => [String(r.slug), String(r.id)]));
}

/** The view id a configured name stands for: an id as it is, a slug through the mirrored views; null when neither. */
function idOf(name: string, slugs: ReadonlyMap<string, string>): string | null {
  return slugs.get(name) ?? (UUID.test(name) ? name.toLowerCase() : null);
}

/** The configured views (ids or slugs) that stand for no view: slugs no mirrored view has (what `status` says). */
export async function unresolvedViews(store: Store, views: readonly string[]): Promise<string[]> {
  if (views.every((v) => UUID.test(v))) return [];
  const slugs = await mirroredSlugs(store);
  return views.filter((v) => idOf(v, slugs) === null);
}

/** The line that names a view that does not resolve, said alike by `status`, /healthz and the status page. */
export function unresolvedViewLine(name: string): string {
  return `monitoring view "${name}" does not resolve (no mirrored view has this id or slug): its webhook deliveries are refused and its secret signs for no view`;
}

export class ViewRules {
  private slugs = new Map<string, string>(); // slug -> id
  private readAt = -Infinity;

  constructor(
    private readonly store: Store,
    private readonly opts: ViewRulesOptions,
  ) {}

  /** Why a delivery for `viewId`, signed by the verifier's secrets `signedBy` (null: unsigned), is refused, or null. */
  async refusal(viewId: string, signedBy: readonly number[] | null): Promise<ViewRefusal | null> {
    const names = [...this.opts.views, ...this.opts.secretViews.filter((v): v is string => v !== null)];
    if (names.some((n) => this.idOf(n) === null)) await this.reread();
    if (this.opts.views.length > 0 && !this.opts.views.some((n) => this.idOf(n) === viewId)) return 'view_not_configured';
    if (signedBy === null) return null;
    const own = signedBy.some((i) => {
      const bound = this.opts.secretViews[i] ?? null;
      return bound === null ? !this.hasOwnSecret(viewId) : this.idOf(bound) === viewId;
    });
    return own ? null : 'wrong_view_secret';
  }

  /**
   * The configured views that do not resolve, as last read (a probe never waits on the database); a
   * reading older than a minute is renewed in the background for the next probe.
   */
  unresolved(): string[] {
    const missing = this.opts.views.filter((n) => this.idOf(n) === null);
    if (missing.length > 0) this.reread().catch(() => {}); // a store that fails is said by the deliveries' own errors
    return missing;
  }

  /** Reads the mirrored views now (at start: the first probe and the start's log line then know them). */
  async read(): Promise<void> {
    this.readAt = -Infinity;
    await this.reread();
  }

  private hasOwnSecret(viewId: string): boolean {
    return this.opts.secretViews.some((v) => v !== null && this.idOf(v) === viewId);
  }

  private idOf(name: string): string | null {
    return idOf(name, this.slugs);
  }

  private async reread(): Promise<void> {
    const now = (this.opts.now ?? Date.now)();
    if (now - this.readAt < REREAD_MS) return;
    this.readAt = now;
    this.slugs = await mirroredSlugs(this.store);
  }
}
