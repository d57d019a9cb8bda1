// The page's stylesheet: dark panels as a Grafana user knows them, one column on a phone. Inline, so
// the page loads nothing from anywhere.
export const PAGE_STYLE = `
:root{--bg:#111217;--panel:#181b1f;--line:#2c3235;--text:#ccccdc;--muted:#8e8e9e;--ok:#73bf69;--warn:#fade2a;--bad:#f2495c;--info:#5794f2;--orange:#ff9830;--purple:#b877d9}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header,main{max-width:1400px;margin:0 auto;padding:12px 16px}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 16px;border-bottom:1px solid var(--line)}
h1{font-size:18px;margin:0}h2{font-size:16px;margin:24px 0 8px}h3{font-size:14px;margin:0 0 8px;overflow-wrap:anywhere}
.muted{color:var(--muted)}code{font-size:12px;white-space:nowrap}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,420px),1fr));gap:12px}
.grid.small{grid-template-columns:repeat(auto-fill,minmax(min(100%,300px),1fr))}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:12px;min-width:0}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(110px,1fr));gap:8px;margin-bottom:10px}
.summary{margin-top:12px}
.stat{background:var(--panel);border:1px solid var(--line);border-left:4px solid var(--ok);border-radius:4px;padding:6px 10px;display:flex;flex-direction:column;min-width:0}
.stat.warn{border-left-color:var(--warn)}.stat.bad{border-left-color:var(--bad)}.stat.muted{border-left-color:var(--muted)}
.stat .label{font-size:12px;color:var(--muted)}.stat .value{font-size:22px;font-weight:600}.stat .note{font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.stat.ok .value{color:var(--ok)}.stat.warn .value{color:var(--warn)}.stat.bad .value{color:var(--bad)}
.banner{border-radius:4px;padding:8px 12px;margin:0 0 10px}.banner ul{margin:4px 0 0;padding-left:18px}
.banner.bad{background:rgba(242,73,92,.15);border:1px solid var(--bad)}.banner.warn{background:rgba(250,222,42,.1);border:1px solid var(--warn)}
.chart{margin:0}.plot{position:relative;height:120px;border-left:1px solid var(--line)}
.plot svg{display:block;width:100%;height:100%}
.ymax{position:absolute;top:-2px;left:4px;font-size:11px;color:var(--muted)}
.ticks{display:flex;justify-content:space-between;font-size:11px;color:var(--muted);padding-top:2px}
.earlier{fill:#3d5a80}.day{fill:var(--info)}.webhook{fill:var(--ok)}.backfill{fill:var(--orange)}.both{fill:var(--purple)}
line.axis{stroke:var(--line);stroke-width:1}line.rule{stroke:var(--bad);stroke-width:2;stroke-dasharray:6 4}
line.projection{stroke:var(--warn);stroke-width:2;stroke-dasharray:3 3}
.legend{font-size:12px;color:var(--muted);margin:6px 0 0}
.key{display:inline-block;width:10px;height:10px;border-radius:2px;margin:0 4px 0 8px;vertical-align:-1px}
.key.day{background:var(--info)}.key.earlier{background:#3d5a80}.key.webhook{background:var(--ok)}.key.backfill{background:var(--orange)}.key.both{background:var(--purple)}
.key.rule{height:0;border-top:2px dashed var(--bad);border-radius:0}.key.projection{height:0;border-top:2px dashed var(--warn);border-radius:0}
.scroll{overflow-x:auto;background:var(--panel);border:1px solid var(--line);border-radius:4px}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{color:var(--muted);font-weight:500;white-space:nowrap;background:#1f2226}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.name{white-space:nowrap;font-weight:500}td.streams{min-width:160px;color:var(--muted)}
.message{max-width:420px;overflow-wrap:anywhere;font-size:12px}
.code{font-weight:600}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#111217;background:var(--ok);white-space:nowrap}
.badge.warn{background:var(--warn)}.badge.bad{background:var(--bad)}.badge.muted{background:#464c54;color:var(--text)}.badge.info{background:var(--info)}
.tag{font-size:11px;color:var(--info);border:1px solid var(--info);border-radius:3px;padding:0 4px}
.panel.held{border-color:var(--bad)}td.when{white-space:nowrap}
.bad-text{color:var(--bad)}.warn-text{color:var(--warn)}
@media (max-width:600px){header,main{padding:8px}.stat .value{font-size:18px}th,td{padding:4px 6px}}
`;
