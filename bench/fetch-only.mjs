// The fetch-only floor of a first `sync v1`: the same pages as ds-mirror, each list
// with ds-mirror's page window in flight and its page count known beforehand, the lists at once under
// the same 16-request cap; bodies read and dropped, nothing parsed or written. What a first sync would
// take if it knew every list's length and wrote for free.
//   node bench/fetch-only.mjs <baseUrl> <apiKey> '<[{"path","query","pageSize","pages","window"}]>'
const [baseUrl, apiKey, listsJson] = process.argv.slice(2);
const lists = JSON.parse(listsJson);
const CAP = 16;
let active = 0;
const waiting = [];
const slot = () => (active < CAP ? (active++, Promise.resolve()) : new Promise((resolve) => waiting.push(resolve)));
const release = () => (waiting.length > 0 ? waiting.shift()() : active--);

let requests = 0;
async function get(path, query, page, pageSize) {
  const url = new URL(path, baseUrl);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  url.searchParams.set('page', String(page));
  url.searchParams.set('limit', String(pageSize));
  await slot();
  try {
    const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
    await res.arrayBuffer();
    requests++;
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  } finally {
    release();
  }
}

await Promise.all(
  lists.map(async ({ path, query, pageSize, pages, window }) => {
    let next = 1;
    const worker = async () => {
      while (next <= pages) await get(path, query, next++, pageSize);
    };
    await Promise.all(Array.from({ length: window }, worker));
  }),
);
process.stdout.write(`${JSON.stringify({ requests })}\n`);
