#!/usr/bin/env bash
# test_package.sh BUILD_DIR: makes the .deb with CPack (as scripts/package does), unpacks it into a
# scratch root with dpkg-deb -x, and checks the installed files from there: syncscope-cli --version and
# the GUI offscreen (a screenshot) run from the installed paths, the man pages render without warnings
# and show every command, the AppStream metainfo and the desktop entry are valid, the systemd unit
# passes systemd-analyze verify, the bash completion completes commands and options, the package's
# control data names its dependencies and the maintainer scripts are there.
set -euo pipefail
build=$(cd "$1" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "test_package: FAIL: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1) || { cat "$scratch/cpack.log" >&2; fail "cpack failed"; }
deb=$(ls "$scratch"/out/*.deb)
echo "package: $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb --info "$deb" >"$scratch/info"
grep -q "^ Package: syncscope$" "$scratch/info" || fail "package name"
grep -q "^ Depends: .*libqt6widgets6" "$scratch/info" || fail "Depends lacks the Qt widgets library: $(grep Depends "$scratch/info")"
grep -q "^ Depends: .*libmariadb3" "$scratch/info" || fail "Depends lacks libmariadb3"
! grep -q " ;" "$scratch/info" || fail "a CMake list leaked into the control file: $(grep " ;" "$scratch/info")"
# Each listing is read whole before it is searched: under pipefail, grep -q closing the pipe early would fail
# the writer with SIGPIPE and the check at random.
control_files=$(dpkg-deb --ctrl-tarfile "$deb" | tar -t)
grep -qx "\(\./\)\?postinst" <<<"$control_files" || fail "no postinst: $control_files"

root=$scratch/root
dpkg-deb -x "$deb" "$root"
for f in usr/bin/syncscope usr/bin/syncscope-cli usr/share/applications/syncscope.desktop \
         usr/share/icons/hicolor/scalable/apps/syncscope.svg usr/share/metainfo/org.syncscope.syncscope.metainfo.xml \
         usr/share/man/man1/syncscope.1.gz usr/share/man/man1/syncscope-cli.1.gz lib/systemd/system/syncscope@.service \
         usr/lib/sysusers.d/syncscope.conf usr/share/bash-completion/completions/syncscope-cli \
         usr/share/syncscope/monitoring/syncscope-dashboard.json usr/share/syncscope/monitoring/syncscope-alerts.yml \
         usr/share/doc/syncscope/examples/demo-task.yaml usr/share/doc/syncscope/copyright \
         usr/share/doc/syncscope/README.md usr/share/doc/syncscope/docs/user-guide.md \
         usr/share/doc/syncscope/docs/screenshots/running_real_task.png; do
  [ -e "$root/$f" ] || [ -e "$root/usr/$f" ] || fail "$f is not in the package"
done

version=$("$root/usr/bin/syncscope-cli" --version)
[[ $version == "syncscope-cli "* ]] || fail "syncscope-cli --version said '$version'"
echo "installed: $version"
gui_version=$(QT_QPA_PLATFORM=offscreen "$root/usr/bin/syncscope" --version)
[[ $gui_version == "syncscope "* ]] || fail "syncscope --version said '$gui_version'"
# The installed manual's CLI reference is the installed program's --help (written at build time).
grep -q "syncscope-cli verify --help" "$root/usr/share/doc/syncscope/docs/cli.md" ||
  fail "the installed docs/cli.md has no reference generated from --help"
# The screenshot stays in the build tree for review.
shot=$build/test-output/package/installed_gui.png
mkdir -p "$(dirname "$shot")"
rm -f "$shot"
QT_QPA_PLATFORM=offscreen "$root/usr/bin/syncscope" --screenshot "$shot" --screenshot-after 1 ||
  fail "the installed GUI did not run offscreen"
[ -s "$shot" ] || fail "the installed GUI wrote no screenshot"

for page in syncscope syncscope-cli; do
  text=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l "$root/usr/share/man/man1/$page.1.gz" 2>"$scratch/man.err")
  [ ! -s "$scratch/man.err" ] || fail "man $page warns: $(cat "$scratch/man.err")"
  grep -q -- "--help" <<<"$text" || grep -q "Usage\|SYNOPSIS" <<<"$text" || fail "man $page is empty"
done
cli_man=$(MANWIDTH=200 man -l "$root/usr/share/man/man1/syncscope-cli.1.gz" 2>/dev/null)
for command in $("$root/usr/bin/syncscope-cli" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
  grep -q "syncscope-cli $command" <<<"$cli_man" || fail "man syncscope-cli lacks the command $command"
done

appstreamcli validate --no-net "$root/usr/share/metainfo/org.syncscope.syncscope.metainfo.xml" >"$scratch/as.log" 2>&1 ||
  { cat "$scratch/as.log" >&2; fail "appstreamcli validate"; }
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/syncscope.desktop" || fail "desktop-file-validate"
fi

unit=$root/lib/systemd/system/syncscope@.service
[ -e "$unit" ] || unit=$root/usr/lib/systemd/system/syncscope@.service
if command -v systemd-analyze >/dev/null; then
  # The unit names /usr/bin/syncscope-cli; point it at the scratch root's copy for the check.
  sed "s|/usr/bin/syncscope-cli|$root/usr/bin/syncscope-cli|" "$unit" >"$scratch/syncscope@.service"
  systemd-analyze verify --man=no "$scratch/syncscope@.service" 2>&1 | tee "$scratch/verify.log"
  [ ! -s "$scratch/verify.log" ] || fail "systemd-analyze verify is not clean"
else
  echo "systemd-analyze not found: the unit is not verified"
fi

# Completion: commands from the installed binary, the check command's options, YAML files for --source.
completion=$root/usr/share/bash-completion/completions/syncscope-cli
complete_words() {
  (cd "$scratch" && PATH="$root/usr/bin:$PATH" bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _syncscope_cli; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@")
}
touch "$scratch/orders-source.yaml"
che=$(complete_words syncscope-cli che | sort | tr '\n' ' ')
[ "$che" = "check checkpoints " ] || fail "completion of 'che': $che"
exp=$(complete_words syncscope-cli check --exp)
grep -qx -- --expected-lag <<<"$exp" || fail "completion of check --exp: $exp"
ord=$(complete_words syncscope-cli check t.yaml --source ord)
grep -qx orders-source.yaml <<<"$ord" || fail "completion of --source: $ord"
echo "test_package: all checks passed"
