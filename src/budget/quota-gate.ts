// The client's gate to the usage ledger: before every attempt (retries included) a request is admitted
// from a block reserved in the ledger, or refused with a QuotaError naming the quota and its renewal.
// A quota the service announces (a 429 saying the allowance is spent) is held in the ledger, so other
// workers and later runs do not ask again before it renews.
import type { ApiFamily, RequestGate, ServiceQuotaError } from '../client/index.js';
import type { Store } from '../store/types.js';
import { planQuotas, type PlanLimits } from './plan-quotas.js';
import { QuotaError } from './quota-error.js';
import { quotaFamilyOf, renewsAt, utcDay, type FamilyQuota, type QuotaFamily, type Quotas } from './quotas.js';
import { UsageLedger, type QuotaHold } from './usage-ledger.js';

interface Block {
  day: string;
  left: number;
  /** Its size when reserved, and when (performance.now): the pace of admissions sizes the next one. */
  size: number;
  at: number;
}

/** The largest block, in multiples of the smallest: about a second of requests at a lifted pace. */
const MAX_BLOCK_FACTOR = 10;

export interface QuotaGateOptions {
  ledger: UsageLedger;
  quotas: Quotas;
  /** The time the quotas are counted in (UTC days and months); injected by tests. */
  clock?: () => Date;
  /**
   * The smallest block of requests reserved from the ledger at once (default 10). Blocks grow to a second's
   * requests at the pace admissions come (at most ten times this); a crashed worker over-counts by at most
   * a block and a half.
   */
  blockSize?: number;
}

export class QuotaGate implements RequestGate {
  private readonly blocks = new Map<QuotaFamily, Block>();
  /** Refunds that came while a family had no block (a refill under way): released to the ledger at settle. */
  private readonly returned = new Map<QuotaFamily, Pick<Block, 'day' | 'left'>>();
  private readonly reserving = new Map<QuotaFamily, Promise<void>>();
  /** The day each family's quotas were last recorded in the ledger by this gate. */
  private readonly recorded = new Map<QuotaFamily, string>();
  /** Families refused in this process, with why: the run's one line per quota. */
  readonly refused = new Map<QuotaFamily, QuotaError>();
  private readonly clock: () => Date;
  private readonly blockSize: number;

  constructor(private readonly opts: QuotaGateOptions) {
    this.clock = opts.clock ?? (() => new Date());
    this.blockSize = opts.blockSize ?? 10;
  }

  async admit(apiFamily: ApiFamily): Promise<void> {
    const family = quotaFamilyOf(apiFamily);
    const known = this.refused.get(family);
    if (known && known.renewsAt.getTime() > this.clock().getTime()) throw known;
    for (;;) {
      const block = this.blocks.get(family);
      if (block && block.day === utcDay(this.clock()) && block.left > 0) {
        block.left--;
        // Half spent: the next block is reserved meanwhile, so no request waits on the store (a long write).
        if (block.left <= block.size / 2 && !this.reserving.has(family))
          this.track(
            family,
            this.topUp(family, block).catch(() => {}),
          );
        return;
      }
      // One reservation per family at a time; everyone waiting takes from the block it brings.
      await (this.reserving.get(family) ?? this.track(family, this.refill(family)));
    }
  }

  /** Throws the family's announced hold, once this gate knows it: a request that waited for its pace is not sent into it. */
  check(apiFamily: ApiFamily): void {
    const known = this.refused.get(quotaFamilyOf(apiFamily));
    if (known?.period === 'announced' && known.renewsAt.getTime() > this.clock().getTime()) throw known;
  }

  async spent(apiFamily: ApiFamily, said: ServiceQuotaError): Promise<QuotaError> {
    const family = quotaFamilyOf(apiFamily);
    const error = new QuotaError({
      family,
      period: 'announced',
      limit: null,
      used: null,
      renewsAt: said.until,
      reason: said.serverMessage ?? undefined,
    });
    this.refused.set(family, error);
    await this.opts.ledger.hold({ family, until: said.until, reason: error.reason ?? 'HTTP 429' }, this.clock());
    return error;
  }

  /**
   * A request admitted but never sent (refused connection, DNS, TLS, a closed client): its reservation goes
   * back to the block, or, while a refill has none, to the ledger at settle.
   */
  refund(apiFamily: ApiFamily): void {
    const family = quotaFamilyOf(apiFamily);
    const block = this.blocks.get(family);
    if (block) {
      block.left++;
      return;
    }
    const day = utcDay(this.clock());
    const returned = this.returned.get(family);
    if (returned?.day === day) returned.left++;
    else this.returned.set(family, { day, left: 1 });
  }

  /** The slot of the pace the database's workers share (none on SQLite): ms to wait. */
  pace(apiFamily: ApiFamily, intervalMs: number): Promise<number> {
    return this.opts.ledger.paceSlot(quotaFamilyOf(apiFamily), intervalMs);
  }

  /** Gives back what was reserved and not sent: afterwards the ledger holds exactly the requests made. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.reserving.values());
    for (const blocks of [this.blocks, this.returned]) {
      for (const [family, block] of blocks) {
        await this.opts.ledger.release(family, block.day, block.left);
        block.left = 0;
      }
    }
  }

  private track(family: QuotaFamily, reservation: Promise<void>): Promise<void> {
    const pending = reservation.finally(() => this.reserving.delete(family));
    pending.catch(() => {}); // a refill's refusal reaches the admits that wait on it
    this.reserving.set(family, pending);
    return pending;
  }

  /** The next block's size: the requests of the last block's lifetime scaled to a second, within bounds. */
  private nextSize(last: Block | undefined): number {
    if (!last) return this.blockSize;
    const perSecond = ((last.size - last.left) * 1000) / Math.max(1, performance.now() - last.at);
    return Math.min(this.blockSize * MAX_BLOCK_FACTOR, Math.max(this.blockSize, Math.ceil(perSecond)));
  }

  /**
   * Adds a block to the one being spent. Nothing is refused or thrown here: a quota spent, a family held or
   * a store that fails is found, and said, by the refill once the current block runs out.
   */
  private async topUp(family: QuotaFamily, block: Block): Promise<void> {
    const now = this.clock();
    if (utcDay(now) !== block.day) return;
    const hold = await this.opts.ledger.holdForRun(family, now);
    // Another worker was told the allowance is spent: the requests admitted here and not yet sent stop too.
    if (hold) return void this.refuse(heldError(hold));
    const got = await this.opts.ledger.reserve(family, this.nextSize(block), this.quota(family), now).catch(() => null);
    if (!got || got.granted === 0 || this.blocks.get(family) !== block) {
      if (got?.granted) await this.opts.ledger.release(family, block.day, got.granted);
      return;
    }
    Object.assign(block, { left: block.left + got.granted, size: block.left + got.granted, at: performance.now() });
  }

  private quota(family: QuotaFamily): FamilyQuota {
    return this.opts.quotas[family] ?? {};
  }

  private async refill(family: QuotaFamily): Promise<void> {
    const now = this.clock();
    const old = this.blocks.get(family);
    if (old && old.left > 0) await this.opts.ledger.release(family, old.day, old.left); // a new day began
    this.blocks.delete(family);
    const hold = await this.opts.ledger.holdForRun(family, now);
    if (hold) throw this.refuse(heldError(hold));
    // The quotas this run works under, beside the counts (once a family per day and process).
    const day = utcDay(now);
    if (this.recorded.get(family) !== day) {
      await this.opts.ledger.recordQuotas(family, this.quota(family), now);
      this.recorded.set(family, day);
    }
    const got = await this.opts.ledger.reserve(family, this.nextSize(old), this.quota(family), now);
    if ('spent' in got) {
      throw this.refuse(
        new QuotaError({ family, period: got.spent, limit: got.limit, used: got.used, renewsAt: renewsAt(got.spent, now) }),
      );
    }
    this.blocks.set(family, { day: utcDay(now), left: got.granted, size: got.granted, at: performance.now() });
  }

  private refuse(error: QuotaError): QuotaError {
    this.refused.set(error.family, error);
    return error;
  }
}

/** The refusal of a family the ledger holds: the service announced its allowance spent. */
function heldError(hold: QuotaHold): QuotaError {
  return new QuotaError({ family: hold.family, period: 'announced', limit: null, used: null, renewsAt: hold.until, reason: hold.reason });
}

/** The gate a command's client asks before every request: the configured plan over this store's ledger. */
export function quotaGate(store: Store, limits?: PlanLimits, clock?: () => Date): QuotaGate {
  return new QuotaGate({ ledger: new UsageLedger(store), quotas: planQuotas(limits), clock });
}
