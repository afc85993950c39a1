#!/usr/bin/env bash
# Print the check catalogue as a Markdown table (for README.md's "Checks" section), from the
# registry's own metadata: ./scripts/checks-table.sh [path/to/fmucheck]
set -euo pipefail
exe=${1:-build/fmucheck}
"$exe" --list-checks --json | python3 -c '
import json, sys
checks = json.load(sys.stdin)
print("| id | FMI | level | applies | spec | what it checks |")
print("|---|---|---|---|---|---|")
for c in checks:
    print("| `%s` | %s | %s | %s | %s | %s |" % (c["id"], ",".join(c.get("fmiVersions", [])),
          c["level"], ",".join(c["applies"]), c["spec"].replace("FMI 2.0.4 ", ""),
          c["title"].replace("|", "\\|")))
print()
print("%d checks." % len(checks))
'
