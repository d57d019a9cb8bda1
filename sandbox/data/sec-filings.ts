// SEC filings (fields not shown by the spec). Key: the accession number, which encodes the index.
import { Rng } from '../core/prng.js';
import { DAY, isoDate } from '../core/dates.js';
import { properName } from '../core/text.js';
import type { World } from './world.js';

const FORMS: readonly [string, string][] = [
  ['10-K', 'Annual Report'],
  ['10-Q', 'Quarterly Report'],
  ['8-K', 'Current Report'],
  ['S-1', 'Registration'],
  ['4', 'Insider Trading'],
  ['SC 13G', 'Ownership'],
  ['13F-HR', 'Holdings'],
  ['DEF 14A', 'Proxy'],
];
const SUFFIXES = [' Inc.', ' Corp.', ' Holdings', ' Group', ' Technologies', ' Financial'];

function companyCount(w: World): number {
  return Math.max(20, Math.round(w.secFilings.baseCount / 10));
}

function company(w: World, c: number): { name: string; cik: number; ticker: string | null } {
  const rng = new Rng(w.seed, 'sec-company', c);
  const name = properName(rng) + rng.pick(SUFFIXES);
  return {
    name,
    cik: 1_000_000 + c * 37,
    ticker: rng.orNull(
      0.2,
      name
        .replace(/[^A-Za-z]/g, '')
        .slice(0, 4)
        .toUpperCase(),
    ),
  };
}

export interface FilingIdentity {
  index: number;
  accessionNumber: string;
  company: string;
  cik: number;
  ticker: string | null;
  formType: string;
  category: string;
  filingDate: string;
}

export function filingIdentity(w: World, k: number): FilingIdentity {
  const rng = new Rng(w.seed, 'sec', k);
  const co = company(w, rng.int(companyCount(w)));
  const [formType, category] = rng.pick(FORMS);
  const born = w.secFilings.bornAt(k);
  const filed = born ?? w.startSeconds - (1 + rng.int(730)) * DAY;
  const yy = isoDate(filed).slice(2, 4);
  return {
    index: k,
    accessionNumber: `${String(co.cik).padStart(10, '0')}-${yy}-${String(k).padStart(6, '0')}`,
    company: co.name,
    cik: co.cik,
    ticker: co.ticker,
    formType,
    category,
    filingDate: isoDate(filed),
  };
}

/** The index an accession number encodes (its last six digits), or -1 when malformed. */
export function filingIndexOf(accession: string): number {
  const m = /^\d{10}-\d{2}-(\d{6})$/.exec(accession);
  return m ? Number(m[1]) : -1;
}

export function filingJson(w: World, k: number): Record<string, unknown> {
  const f = filingIdentity(w, k);
  const rng = new Rng(w.seed, 'sec-text', k);
  const vr = new Rng(w.seed, 'sec-v', k, w.secFilings.version(k));
  const filedAt = Date.parse(`${f.filingDate}T00:00:00Z`) / 1000;
  const flat = f.accessionNumber.replace(/-/g, '');
  return {
    accession_number: f.accessionNumber,
    cik: f.cik,
    company: f.company,
    ticker: f.ticker,
    form_type: f.formType,
    category: f.category,
    filing_date: f.filingDate,
    report_date: rng.orNull(0.3, isoDate(filedAt - (1 + rng.int(90)) * DAY)),
    title: `${f.company} ${f.formType} ${vr.chance(0.5) ? '' : '(amended) '}${f.filingDate}`.replace(/ +/g, ' ').trim(),
    url: `https://www.sec.gov/Archives/edgar/data/${f.cik}/${flat}/${f.accessionNumber}-index.htm`,
    updated_at: w.secFilings.changedAt(k) || filedAt + 3600,
  };
}
