"""The one style sheet of the report site (``style.css`` beside every page), for screen and print.

Quiet typography, left-aligned text and tables with tabular figures, findings in a tinted box at
the top of each page, figures that scale to the page, the "how this was computed" box in small
print; printed, the navigation is left out and no figure, table or finding is split over a page.
"""

CSS = """\
:root{--ink:#1d2327;--muted:#5b6670;--line:#dfe3e8;--soft:#f5f7f9;--accent:#2f6fb3;
--tint:#eef4fb}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;color:var(--ink);background:#fff;font:16px/1.55 system-ui,-apple-system,
"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent)}
header.site{border-bottom:1px solid var(--line);background:var(--soft)}
header.site .bar{max-width:1000px;margin:0 auto;padding:.6em 1.2em;display:flex;
flex-wrap:wrap;align-items:baseline;gap:.4em 1.2em}
header.site .home{font-weight:600;color:var(--ink);text-decoration:none;margin-right:.6em}
header.site nav a{color:var(--muted);text-decoration:none;padding:.1em .5em;border-radius:4px;
font-size:.92em}
header.site nav a:hover{background:#e6ebf0;color:var(--ink)}
header.site nav a[aria-current]{background:var(--accent);color:#fff}
main{max-width:1000px;margin:0 auto;padding:1.2em 1.2em 3em}
h1{font-size:1.9em;line-height:1.2;margin:.4em 0 .3em}
h2{font-size:1.3em;margin:0 0 .5em}
h3{font-size:1.05em;margin:1.2em 0 .4em}
p,li{max-width:46em}
.lede{color:var(--muted);font-size:1.05em;margin-top:0}
section.findings{background:var(--tint);border-left:4px solid var(--accent);border-radius:6px;
padding:.9em 1.2em .6em;margin:1.2em 0 1.6em}
section.findings h2{font-size:1.15em;margin-bottom:.4em}
section.findings ul{margin:.2em 0 .4em;padding-left:1.2em}
section.findings li{margin:.35em 0}
nav.toc{font-size:.92em;color:var(--muted);margin:0 0 1.5em}
nav.toc a{margin-right:.9em;white-space:nowrap}
section.part .more{margin:.2em 0 1em;padding-left:1.2em}
section.part{border-top:1px solid var(--line);padding-top:1.3em;margin-top:1.8em}
.table{overflow-x:auto;margin:.6em 0 1em}
table{border-collapse:collapse;font-size:.88em;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:.3em .8em;border-bottom:1px solid var(--line);
vertical-align:top}
td:not(:first-child){white-space:nowrap}
th{background:var(--soft);font-weight:600;border-bottom:2px solid var(--line)}
tbody tr:nth-child(even){background:#fbfcfd}
figure{margin:1em 0 1.4em}
figure img{display:block;max-width:100%;height:auto;border:1px solid var(--line);
border-radius:4px;background:#fff}
figcaption,.meta{color:var(--muted);font-size:.85em;margin-top:.35em}
aside.how{background:var(--soft);border:1px solid var(--line);border-radius:6px;
font-size:.85em;color:var(--muted);padding:.6em .9em;margin:1em 0}
aside.how strong{color:var(--ink)}
code{background:var(--soft);padding:0 .25em;border-radius:3px;font-size:.92em}
footer{border-top:1px solid var(--line);margin-top:2.5em;padding-top:.8em;color:var(--muted);
font-size:.85em}
footer ul{padding-left:1.2em}
.cards{display:grid;gap:1.1em}
.card{display:flex;gap:1.2em;border:1px solid var(--line);border-radius:8px;padding:1em 1.2em;
align-items:flex-start}
.card .text{flex:1 1 auto;min-width:0}
.card h2{margin:0 0 .3em}
.card h2 a{color:var(--ink);text-decoration:none}
.card h2 a:hover{color:var(--accent)}
.card ul{margin:.3em 0;padding-left:1.1em}
.card li{margin:.25em 0;font-size:.95em}
.card .thumb{flex:0 0 260px}
.card .thumb img{width:260px;height:auto;border:1px solid var(--line);border-radius:4px}
@media (max-width:720px){.card{flex-direction:column}.card .thumb{flex:none}}
@media print{
 header.site,nav.toc{display:none}
 body{font-size:11pt}
 main{max-width:none;padding:0}
 a{color:inherit;text-decoration:none}
 section.findings{border:1px solid #999;border-left:4px solid #333;background:none}
 figure,table,.card,section.findings,aside.how{break-inside:avoid}
 h2,h3{break-after:avoid}
 .table{overflow:visible}
}
"""
