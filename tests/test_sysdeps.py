"""``make test`` sets up what pip cannot bring (tools/sysdeps.sh reading tools/sysdeps.txt):
installed with apt-get as root or through password-less sudo, otherwise one line naming the
command to run. The script runs here against a list of commands that exist nowhere, with
stand-in ``apt-get``, ``id`` and ``sudo`` on the PATH that log what they were asked."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
MISSING = "gnav-test-no-such-command"


def _entries() -> list[tuple[str, str, set[str]]]:
    out = []
    for line in (TOOLS / "sysdeps.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            cmd, package, targets = line.split()[:3]
            out.append((cmd, package, set(targets.split(","))))
    return out


def test_the_list_names_what_the_tests_run() -> None:
    listed = {cmd: (package, targets) for cmd, package, targets in _entries()}
    # The browser tests drive Debian's chromium, the terminal tests drive tmux.
    assert listed["chromium"] == ("chromium", {"test"})
    assert listed["tmux"] == ("tmux", {"test"})
    # Every command a test or tool looks up on the PATH is on the list.
    looked_up = set()
    for path in [*ROOT.glob("tests/*.py"), *TOOLS.glob("*.py")]:
        if path.name == Path(__file__).name:  # this file's bash runs the script itself
            continue
        looked_up |= set(re.findall(r"""shutil\.which\(["']([\w.-]+)["']\)""",
                                    path.read_text(encoding="utf-8")))
    # Other names of a listed command (another distribution's, Debian's older one), and
    # make, which runs this list.
    aliases = {"chromium-browser": "chromium", "nodejs": "node"}
    assert set(aliases.values()) <= set(listed)
    looked_up -= {*aliases, "make"}
    assert looked_up <= set(listed), sorted(looked_up - set(listed))


def test_make_test_and_run_check_first() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("test", "run"):
        rule = re.search(rf"^{target}:(.*)$", makefile, re.M)
        assert rule is not None, target
        assert rule.group(1).split()[0] == f"sysdeps-{target}", rule.group(0)


class Machine:
    """A copy of the script with its own list, and a PATH of stand-ins in front."""

    def __init__(self, tmp: Path, *, uid: int, sudo: str | None, apt: bool = True,
                 provides: bool = True) -> None:
        self.tmp = tmp
        self.log = tmp / "log"
        self.log.write_text("")
        tools = tmp / "tools"
        tools.mkdir()
        shutil.copy(TOOLS / "sysdeps.sh", tools)
        (tools / "sysdeps.txt").write_text(
            "# command package targets\n"
            f"{MISSING} gnav-test-pkg test\n"
            f"{MISSING}-2 gnav-test-pkg test\n"  # one package, two commands: named once
            "sh sh-is-there test\n"
            f"{MISSING}-run gnav-test-run-pkg run\n")
        self.bin = tmp / "bin"
        self.bin.mkdir()
        self._stub("id", f'echo {uid}')
        if apt:
            # apt-get "installs" by putting the missing commands on the PATH.
            brings = (f'for c in {MISSING} {MISSING}-2 {MISSING}-run; do '
                      f'printf "#!/bin/sh\\n" > "{self.bin}/$c"; chmod +x "{self.bin}/$c"; '
                      'done') if provides else ":"
            self._stub("apt-get", f'echo "apt-get $*" >> "{self.log}"\n'
                                  f'case "$1" in install) {brings};; esac')
        if sudo is not None:
            self._stub("sudo", f'echo "sudo $*" >> "{self.log}"\n{sudo}')

    def _stub(self, name: str, body: str) -> None:
        path = self.bin / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)

    def run(self, target: str = "test") -> subprocess.CompletedProcess[str]:
        bash = shutil.which("bash") or "/bin/bash"
        return subprocess.run([bash, str(self.tmp / "tools" / "sysdeps.sh"), target],
                              capture_output=True, text=True, timeout=30,
                              env={"PATH": f"{self.bin}:/usr/bin:/bin"})

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines()


def test_as_root_it_installs_what_is_missing_once(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=0, sudo=None)
    out = machine.run()
    assert out.returncode == 0, out.stderr
    assert machine.calls() == ["apt-get update -qq", "apt-get install -y -qq gnav-test-pkg"]
    assert "installing gnav-test-pkg" in out.stdout
    # Now present: a second run installs nothing.
    again = machine.run()
    assert again.returncode == 0 and again.stdout == "" and len(machine.calls()) == 2


def test_a_target_checks_only_its_own_commands(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=0, sudo=None)
    assert machine.run("run").returncode == 0
    assert machine.calls()[-1] == "apt-get install -y -qq gnav-test-run-pkg"
    assert machine.run("lint").returncode == 0 and len(machine.calls()) == 2


def test_with_passwordless_sudo_it_installs_through_sudo(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=1000, sudo='[ "$2" = true ] && exit 0; shift; exec "$@"')
    out = machine.run()
    assert out.returncode == 0, out.stderr
    assert machine.calls() == ["sudo -n true", "sudo -n apt-get update -qq",
                               "apt-get update -qq",
                               "sudo -n apt-get install -y -qq gnav-test-pkg",
                               "apt-get install -y -qq gnav-test-pkg"]


@pytest.mark.parametrize("sudo", [None, "exit 1"], ids=["no sudo", "sudo asks a password"])
def test_otherwise_it_stops_at_once_with_the_command_to_run(tmp_path: Path,
                                                            sudo: str | None) -> None:
    machine = Machine(tmp_path, uid=1000, sudo=sudo)
    out = machine.run()
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1, out.stderr
    assert "sudo apt-get install -y gnav-test-pkg" in out.stderr
    assert not [call for call in machine.calls() if "apt-get" in call]


def test_not_debian_names_the_packages(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=0, sudo=None, apt=False)
    # Hide the machine's own apt-get behind a PATH without /usr/bin's.
    bash = shutil.which("bash") or "/bin/bash"
    for tool in ("dirname", "sort"):
        found = shutil.which(tool)
        assert found is not None
        (machine.bin / tool).symlink_to(found)
    out = subprocess.run([bash, str(tmp_path / "tools" / "sysdeps.sh"), "test"],
                         capture_output=True, text=True, timeout=30,
                         env={"PATH": str(machine.bin)})
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "gnav-test-pkg" in out.stderr and "not a Debian system" in out.stderr


def test_an_install_that_brings_no_command_says_so(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=0, sudo=None, provides=False)
    out = machine.run()
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "still not on the PATH" in out.stderr
