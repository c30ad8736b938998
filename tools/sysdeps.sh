#!/usr/bin/env bash
# The commands pip cannot bring (tools/sysdeps.txt), installed before anything else:
#   tools/sysdeps.sh TARGET
# checks the commands the list names for TARGET (test, run). What is missing is installed
# with apt-get when running as root, or through `sudo -n` when sudo needs no password;
# otherwise this stops at once with one line naming the command to run, rather than
# letting the tests fail a minute later with collection errors.
set -euo pipefail
target="${1:?usage: tools/sysdeps.sh TARGET}"
list="$(dirname "$0")/sysdeps.txt"

missing=()
while read -r cmd package targets _; do
  [[ -z "$cmd" || "$cmd" == \#* ]] && continue
  [[ ",$targets," == *",$target,"* ]] || continue
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$package")
done <"$list"
((${#missing[@]})) || exit 0
if [[ "${2:-}" == --installed ]]; then  # apt-get said yes, yet a command is still missing
  echo "make $target: installed ${missing[*]}, but a command tools/sysdeps.txt names for it is still not on the PATH" >&2
  exit 2
fi

# One package may bring several commands: name it once.
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
install="apt-get install -y ${missing[*]}"

if ! command -v apt-get >/dev/null 2>&1; then
  echo "make $target: needs ${missing[*]} (not pip packages) and this is not a Debian system: install them, then run make $target again" >&2
  exit 2
fi
if [[ "$(id -u)" == 0 ]]; then
  as=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as=(sudo -n)
else
  echo "make $target: needs ${missing[*]}, which pip cannot install: run  sudo apt-get update && sudo $install  then make $target again" >&2
  exit 2
fi

echo "make $target: installing ${missing[*]} (${as[*]:+${as[*]} }apt-get; pip cannot bring them)"
export DEBIAN_FRONTEND=noninteractive
"${as[@]}" apt-get update -qq
"${as[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
exec "$0" "$target" --installed
