// Which view a delivery may be for, and with which secret. A delivery for a view the mirror does not
// mirror is refused (its development would otherwise wait in the details backlog and cost a request
// that answers 404); one signed with a secret bound to another view is refused as a forgery would be.
// Views and secrets are named by id or slug; slugs are resolved through the mirrored monitoring_views,
// read again (at most once a minute) while a configured name is not known yet.
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
    if (this.opts.views.length > 0 && !this.opts.views.some((n) => this.idOf(n) === viewId)) {
      // A name not resolved yet may be this view: taken rather than lost, until it is mirrored.
      if (!this.opts.views.some((n) => this.idOf(n) === null)) return 'view_not_configured';
    }
    if (signedBy === null) return null;
    const own = signedBy.some((i) => {
      const bound = this.opts.secretViews[i] ?? null;
      return bound === null ? !this.hasOwnSecret(viewId) : this.idOf(bound) === viewId || this.idOf(bound) === null;
    });
    return own ? null : 'wrong_view_secret';
  }

  private hasOwnSecret(viewId: string): boolean {
    return this.opts.secretViews.some((v) => v !== null && this.idOf(v) === viewId);
  }

  /** The view id a configured name stands for; null for a slug not mirrored yet. */
  private idOf(name: string): string | null {
    return this.slugs.get(name) ?? (UUID.test(name) ? name.toLowerCase() : null);
  }

  private async reread(): Promise<void> {
    const now = (this.opts.now ?? Date.now)();
    if (now - this.readAt < REREAD_MS) return;
    this.readAt = now;
    const rows = await this.store.db.selectFrom('monitoring_views').select(['id', 'slug']).execute();
    this.slugs = new Map(rows.filter((r) => r.slug !== null).map((r) => [String(r.slug), String(r.id)]));
  }
}
