// The status page from the store: read the data, render it. The daemon serves it at /status and
// `ds-mirror status --html <file>` writes it.
import type { Store } from '../../store/types.js';
import { readStatusData, type StatusSources } from './read-status-data.js';
import { renderStatusPage } from './render-status-page.js';

export type { JobLine, StatusData } from './status-data.js';
export type { StatusSources } from './read-status-data.js';

export async function statusPage(store: Store, sources: StatusSources): Promise<string> {
  return renderStatusPage(await readStatusData(store, sources));
}
