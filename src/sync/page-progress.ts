// Where a list (variant) stands while several of its pages are written at once: pages commit out of
// order, so the place a checkpoint may record is the first page not yet done, never past a page that
// is still being written (a resume re-reads from there; re-reading a written page is harmless).
export class PageProgress {
  private readonly done = new Set<number>();
  private lastPage: number | undefined;

  constructor(private next: number) {}

  /** A list already read to its end (its checkpoint says so). */
  static complete(): PageProgress {
    const progress = new PageProgress(1);
    progress.end(0);
    return progress;
  }

  /** The list's last page, once read: past it there is nothing left. */
  end(page: number): void {
    this.lastPage = page;
  }

  /** A page committed, or read and found to need no write. */
  markDone(page: number): void {
    this.done.add(page);
    while (this.done.delete(this.next)) this.next++;
  }

  /** The next page to read, counting the pages `alsoDone` as done (null: the list is complete). */
  nextToRead(...alsoDone: number[]): number | null {
    let place = this.next;
    while (this.done.has(place) || alsoDone.includes(place)) place++;
    return this.lastPage !== undefined && place > this.lastPage ? null : place;
  }
}
