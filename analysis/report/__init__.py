"""Balance reports and rule-change comparisons, computed as structured documents (no drawing).

`build.build_report` plays (through the results store) and measures everything a report
shows; `document` defines the document's shape; `metrics` the statistics; `compare` the
`boardlab compare` comparisons and their sequential test; `glossary` defines every metric.
printkit renders documents to PDF and SVG charts and writes their Markdown.
"""
