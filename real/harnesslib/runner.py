"""The one object through which the harness runs commands (mkswap, swapon,
make, ...) and starts, finds and kills processes.  The tests replace it
with a recorder (tests/fakes.py) that changes only their fake tree.

Every process started runs in a process group of its own (a new session),
with oom_score_adj 1000 (the OOM killer's first choice, before anything
else on the machine) and the series' token in its environment
(MMSIM_HARNESS_TOKEN), which its children inherit: `restore` finds the
processes of a killed harness by it, even one started after the journal's
last line."""
import os
import shutil
import signal
import subprocess
import threading
import time

TOKEN_VAR = "MMSIM_HARNESS_TOKEN"

# oom_score_adj is set by the process itself before exec, so that make's
# first child already inherits it (a parent writing it after fork would race)
OOM_WRAP = ["/bin/sh", "-c", 'echo 1000 > /proc/self/oom_score_adj && exec "$@"', "sh"]


class Proc:
    """a started process (the leader of its own group)"""

    def __init__(self, name, pid):
        self.name = name
        self.pid = pid
        self.pgid = pid
        self.status = None          # wait status once reaped
        self.rusage = None
        self.started = time.monotonic()
        self.ended = None
        self.lock = threading.Lock()    # the watchdog's thread reaps too

    def poll(self):
        """True once exited (reaped, with its rusage: that of the process
        and of every child it waited for, as make's children)"""
        with self.lock:
            if self.status is not None:
                return True
            try:
                pid, status, ru = os.wait4(self.pid, os.WNOHANG)
            except ChildProcessError:
                # not our child (cannot happen for what spawn started)
                self.status, self.ended = 255 << 8, time.monotonic()
                return True
            if pid == 0:
                return False
            self.status, self.rusage, self.ended = status, ru, time.monotonic()
            return True

    def exit_code(self):
        if self.status is None:
            return None
        if os.WIFEXITED(self.status):
            return os.WEXITSTATUS(self.status)
        return 128 + os.WTERMSIG(self.status)


class RealRunner:
    def __init__(self, root):
        self.root = root

    # -------------------------------------------------------- commands
    def run(self, argv, cwd=None, env=None, stdout=None, check=True):
        """a short command, waited for; its output to the file stdout (or
        inherited); returns its exit code, raises when check and it failed"""
        out = open(stdout, "ab") if stdout else None
        try:
            rc = subprocess.call(argv, cwd=cwd, env=env, stdout=out,
                                 stderr=subprocess.STDOUT if out else None)
        finally:
            if out:
                out.close()
        if check and rc != 0:
            raise RuntimeError("%s: exit %d" % (" ".join(argv), rc))
        return rc

    def capture(self, argv, cwd=None):
        """a command's output (read-only queries: git describe, gcc --version)"""
        try:
            return subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                                  timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return "?"

    def which(self, name):
        return shutil.which(name)

    def has_file(self, path):
        """a build dependency's header (libelf.h, openssl/ssl.h)"""
        return os.path.exists(path)

    def disk_free(self, path):
        st = os.statvfs(path)
        return st.f_bavail * st.f_frsize

    # -------------------------------------------------------- processes
    def spawn(self, name, argv, cwd=None, env=None, stdout=None):
        out = open(stdout, "ab") if stdout else subprocess.DEVNULL
        try:
            p = subprocess.Popen(OOM_WRAP + list(argv), cwd=cwd, env=env, stdout=out,
                                 stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 start_new_session=True)
        finally:
            if stdout:
                out.close()
        # Proc reaps it with wait4 (for make's rusage); a returncode set
        # keeps subprocess from reaping it first when the Popen is dropped
        p.returncode = 0
        return Proc(name, p.pid)

    def kill_group(self, pgid, grace=5.0, proc=None):
        """SIGTERM to the group, SIGKILL to what is left after grace
        seconds; proc, the group's leader if we started it, is reaped on
        the way (its exit status kept)"""
        for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
            try:
                os.killpg(pgid, sig)
            except ProcessLookupError:
                break
            end = time.monotonic() + wait
            while time.monotonic() < end:
                if proc:
                    proc.poll()
                if not self.group_members(pgid):
                    break
                time.sleep(0.05)
            else:
                continue
            break
        if proc:
            proc.poll()
        return not self.group_members(pgid)

    def group_members(self, pgid):
        """the live (not zombie) processes of a group"""
        out = []
        for pid, (state, pgrp) in self._stats().items():
            if pgrp == pgid and state != "Z":
                out.append(pid)
        return out

    def _stats(self):
        res = {}
        proc = self.root.path("/proc")
        for d in os.listdir(proc):
            if not d.isdigit():
                continue
            try:
                with open(os.path.join(proc, d, "stat")) as f:
                    stat = f.read()
            except OSError:
                continue
            # after the command's closing parenthesis: state ppid pgrp
            c = stat[stat.rindex(")") + 2:].split()
            res[int(d)] = (c[0], int(c[2]))
        return res

    def find_ours(self, token):
        """{pid: pgid} of every process whose environment holds the token"""
        found = {}
        needle = ("%s=%s" % (TOKEN_VAR, token)).encode()
        proc = self.root.path("/proc")
        for d in os.listdir(proc):
            if not d.isdigit() or int(d) == os.getpid():
                continue
            try:
                with open(os.path.join(proc, d, "environ"), "rb") as f:
                    env = f.read().split(b"\0")
                if needle not in env:
                    continue
                with open(os.path.join(proc, d, "stat")) as f:
                    stat = f.read()
                c = stat[stat.rindex(")") + 2:].split()
                if c[0] != "Z":
                    found[int(d)] = int(c[2])
            except (OSError, ValueError):
                continue
        return found
