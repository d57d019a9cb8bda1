// The script a user would write instead of ds-mirror (the baseline of bench/vs-script.ts): one request at a time,
// each record's raw JSON upserted into one table, one transaction per page. No quotas, no resume, no
// change detection, no history, no quarantine. Its lists come as JSON on argv (the same lists and page
// sizes as `ds-mirror sync v1`), so both read the same rows.
//   node bench/forty-line-script.mjs <baseUrl> <apiKey> <db file> '<[{"path","query","pageSize","key"}]>'
import Database from 'better-sqlite3';

const [baseUrl, apiKey, file, listsJson] = process.argv.slice(2);
const lists = JSON.parse(listsJson);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.exec('create table if not exists records (list text, key text, raw text, primary key (list, key))');
const upsert = db.prepare('insert into records (list, key, raw) values (?, ?, ?) on conflict (list, key) do update set raw = excluded.raw');
const writePage = db.transaction((list, records, keyField) => {
  for (const r of records) upsert.run(list, String(r[keyField]), JSON.stringify(r));
});

let requests = 0;
let rows = 0;
for (const { path, query, pageSize, key } of lists) {
  const name = `${path}?${new URLSearchParams(query)}`;
  for (let page = 1; ; page++) {
    const url = new URL(path, baseUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    url.searchParams.set('page', String(page));
    url.searchParams.set('limit', String(pageSize));
    const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
    requests++;
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    const records = (await res.json()).data;
    writePage(name, records, key);
    rows += records.length;
    if (records.length < pageSize) break;
  }
}
db.close();
process.stdout.write(`${JSON.stringify({ requests, rows })}\n`);
