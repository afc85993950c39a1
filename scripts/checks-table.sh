#!/usr/bin/env bash
# Print the check catalogue as a Markdown table (for README.md's "Checks" section), from the
# registry's own metadata: ./scripts/checks-table.sh [path/to/fmucheck]
set -euo pipefail
exe=${1:-build/fmucheck}
"$exe" --list-checks --json | python3 -c '
import json, sys
checks = json.load(sys.stdin)
print("| id | level | applies | FMI | spec | what it checks |")
print("|---|---|---|---|---|---|")
for c in checks:
    print("| `%s` | %s | %s | %s | %s | %s |" % (c["id"], c["level"], ",".join(c["applies"]),
          ",".join(v.replace(".0", "") for v in c.get("fmiVersions", [])),
          c["spec"].replace("FMI 2.0.4 ", ""), c["title"].replace("|", "\\|")))
print()
print("%d checks." % len(checks))
'
