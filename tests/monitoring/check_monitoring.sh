#!/usr/bin/env bash
# check_monitoring.sh DIR: `promtool check rules` and `promtool test rules` over the alert rules in DIR, then
# every query of the Grafana dashboard parsed by promtool too (written as recording rules, with Grafana's
# $task and $__rate_interval replaced), so a typo in a panel fails here and not on a DBA's screen.
set -euo pipefail
dir=$1
# Exit 77 (ctest: skipped, not passed) where promtool is missing; scripts/setup-deps installs it.
command -v promtool >/dev/null || { echo "promtool not found: scripts/setup-deps installs the Debian package prometheus" >&2; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

promtool check rules "$dir/syncscope-alerts.yml"
(cd "$dir" && promtool test rules syncscope-alerts.test.yml)

python3 - "$dir/syncscope-dashboard.json" >"$scratch/dashboard-queries.yml" <<'PY'
import json, sys
dashboard = json.load(open(sys.argv[1]))
rules = []
for panel in dashboard["panels"]:
    for target in panel.get("targets", []):
        expr = target["expr"].replace("$__rate_interval", "5m").replace("$task", ".*")
        rules.append({"record": "dashboard:query_%d" % len(rules), "expr": expr})
if not rules:
    sys.exit("no queries in the dashboard")
# JSON is YAML: promtool reads it as a rule file.
print(json.dumps({"groups": [{"name": "dashboard", "rules": rules}]}, indent=1))
PY
promtool check rules "$scratch/dashboard-queries.yml"
