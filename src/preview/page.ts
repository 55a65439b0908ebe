// The page around the handsets: a self-contained HTML document and its style
// sheet. The kinds draw the handsets (src/kinds/handset-draw.ts); a kind whose
// drawing needs classes of its own brings their rules (`preview.css`).

import { esc } from '../kinds/handset-draw.js';

/** A whole page: self-contained, no network (the policy forbids every fetch but inline images). */
export function page(title: string, body: string, css = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>${esc(title)}</title>
<style>${CSS}${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const CSS = `
:root{--bg:#f5f2ed;--ink:#1f1a17;--muted:#5e554e;--line:#d9d1c7;--accent:#6b4423;--phone:#1c1c1e;--screen:#ffffff;--bubble:#f0ece6;--add:#1a7f37;--del:#c0262d;--focus:#f0b429}
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI","Apple SD Gothic Neo","Malgun Gothic","Noto Sans KR","Noto Sans CJK KR","Nanum Gothic",sans-serif;color:var(--ink);background:var(--bg);line-height:1.45}
body{margin:0}
:lang(ko),body{word-break:keep-all;overflow-wrap:anywhere}
a{color:var(--accent)}
a:focus-visible,.sg:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
header.top{padding:1rem 1.5rem;background:var(--accent);color:#fff}
header.top h1{margin:0;font-size:1.5rem}header.top p{margin:.25rem 0 0;opacity:.9}
nav.pager{margin-top:.4rem}nav.pager a{color:#fff}ol.pages li{margin:.3rem 0}
.layout{display:grid;grid-template-columns:14rem 1fr 18rem;gap:1.5rem;padding:1.5rem;align-items:start}.changes-layout{grid-template-columns:14rem 1fr}
nav.toc{position:sticky;top:1rem;font-size:.9rem}nav.toc h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:1rem 0 .25rem}
nav.toc ul{list-style:none;margin:0;padding:0}nav.toc li{margin:.15rem 0}
main h2{margin:0 0 1rem;font-size:1.2rem}main section{margin-bottom:2rem}
.grid{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
aside.findings{background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:1rem;font-size:.9rem}
aside.findings h2{margin:0 0 .5rem;font-size:1.1rem}aside.findings ul{margin:0;padding-left:1.1rem}aside.findings li{margin:.4rem 0}
.sev{display:inline-block;font-size:.7rem;font-weight:600;text-transform:uppercase;border-radius:.25rem;padding:0 .3rem;margin-right:.3rem}
.sev-warning{background:#fde7c2;color:#6a3d00}.sev-info{background:#e3ecf7;color:#1d3f66}
footer{padding:1rem 1.5rem;color:var(--muted);font-size:.8rem}
.handset{width:300px;scroll-margin-top:1rem}
.caption{font-size:1rem;margin:0}.meta{margin:.1rem 0 .5rem;color:var(--muted);font-size:.75rem}
.handset:target .phone{outline:4px solid var(--focus);outline-offset:3px}
.phone{background:var(--screen);border:10px solid var(--phone);border-radius:26px;overflow:hidden;min-height:240px;display:flex;flex-direction:column}
.bar{display:flex;align-items:center;gap:.5rem;padding:.5rem .75rem;border-bottom:1px solid var(--line);background:#faf8f5}
.avatar{width:28px;height:28px;border-radius:50%;object-fit:cover;background:var(--accent);color:#fff;display:inline-flex;align-items:center;justify-content:center;font-weight:600;font-size:.8rem}
.room-name{font-weight:600;font-size:.9rem}
.screen{padding:.75rem;flex:1}
.msg{max-width:100%}
.bubble{background:var(--bubble);border-radius:14px 14px 14px 4px;padding:.6rem .75rem;max-width:88%}
.bubble .desc{margin:0;white-space:pre-wrap}
.card{background:#fff;border:1px solid var(--line);border-radius:14px;overflow:hidden}
.card .media{display:block;width:100%;height:120px;object-fit:cover;background:#ece6de}
.media.missing{display:flex;flex-direction:column;align-items:center;justify-content:center;color:var(--muted);font-size:.75rem;text-align:center;padding:.5rem}
.card-text{padding:.5rem .75rem}.bubble .card-text{padding:0}
.title{font-weight:700;margin:0 0 .25rem}.desc{margin:0;font-size:.9rem;white-space:pre-wrap}
dl.other{font-size:.75rem;margin:.4rem 0 0}dl.other dt{color:var(--muted)}dl.other dd{margin:0 0 .2rem}
.slides{display:flex;gap:.5rem;overflow-x:auto;padding-bottom:.25rem}.slides .card{flex:0 0 190px}
.buttons{display:flex;flex-direction:column;border-top:1px solid var(--line)}
.bubble .buttons{margin-top:.5rem;border-top:1px solid #d8d0c6}
.sg{display:flex;flex-wrap:wrap;align-items:baseline;gap:.3rem;text-decoration:none;color:var(--accent);font-size:.85rem}
.btn{padding:.45rem .75rem;border-bottom:1px solid var(--line);justify-content:center;font-weight:600}.btn:last-child{border-bottom:0}
.chips{display:flex;flex-wrap:wrap;gap:.4rem;margin-top:.6rem}
.chip{border:1px solid var(--accent);border-radius:999px;padding:.25rem .65rem;background:#fff}
.kind{font-size:.6rem;font-weight:700;text-transform:uppercase;letter-spacing:.04em;border-radius:.2rem;padding:0 .25rem;background:#efe7dc;color:#4a3524}
.kind-link .kind,.kind.kind-link{background:#e3ecf7;color:#1d3f66}.kind.kind-dial{background:#e2f3e5;color:#1c5a2a}.kind.kind-map{background:#f6e3ef;color:#6b1f4d}.kind.kind-answer{background:#ede7f6;color:#4527a0}
.detail{flex-basis:100%;text-align:center;font-size:.7rem;font-weight:400;color:var(--muted);overflow-wrap:anywhere}
.chip .detail{display:none}
a.sg:hover .label{text-decoration:underline}
.intro{color:var(--muted);font-size:.85rem;margin:0}
.home-head{display:flex;flex-direction:column;align-items:center;text-align:center;gap:.3rem}.home-bg{width:100%;max-height:6rem;object-fit:cover;border-radius:.5rem}.home-profile{width:4rem;height:4rem;border-radius:50%;object-fit:cover}.home-name{font-weight:600;margin:0}
nav.menu{border-top:1px solid var(--line);background:#faf8f5}nav.menu ul{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:1fr 1fr}
nav.menu li{border-bottom:1px solid var(--line)}nav.menu li:nth-child(odd){border-right:1px solid var(--line)}
.item{padding:.5rem;justify-content:center;text-align:center}
.no-menu{margin:0;padding:.5rem .75rem;color:var(--muted);font-size:.8rem;border-top:1px solid var(--line)}
.input{margin:.5rem;border:1px solid var(--line);border-radius:999px;padding:.35rem .75rem;color:var(--muted);font-size:.8rem}.input.off{background:#f1efec}
.safety{margin-left:.3rem;color:var(--add);font-size:.9rem}
.badges{list-style:none;padding:0;margin:.5rem 0 0;font-size:.75rem}
[data-changed]{position:relative}.side p[data-changed]{padding:0 .2rem}
.side.before [data-changed]{outline:2px solid var(--del);outline-offset:-2px;background:#fdecea}
.side.after [data-changed]{outline:2px solid var(--add);outline-offset:-2px;background:#e6f4ea}
.chg-mark{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.change{background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:1rem;margin-bottom:1.5rem}
.change h2{font-size:1.05rem;margin:0 0 .25rem;font-family:ui-monospace,monospace}
.gate{margin:.25rem 0 .75rem;font-size:.85rem}
.sides{display:flex;flex-wrap:wrap;gap:2rem}
.side{margin:0}.side figcaption{font-weight:700;margin-bottom:.4rem}.side.before figcaption{color:var(--del)}.side.after figcaption{color:var(--add)}
.absent{width:300px;min-height:240px;border:2px dashed var(--line);border-radius:26px;display:flex;align-items:center;justify-content:center;color:var(--muted);text-align:center;padding:1rem}
pre.changes{font-size:.8rem;background:#f6f8fa;padding:.75rem;overflow-x:auto;white-space:pre-wrap}
.changes .add{color:var(--add)}.changes .del{color:var(--del)}
@media (max-width:1100px){.layout{grid-template-columns:1fr}nav.toc{position:static}}
`;
