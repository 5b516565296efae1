"""The journal: one JSON object a line, each written and fsynced BEFORE the
change it describes is made, so that a SIGKILL or a crash at any point
leaves a journal that `restore` can undo exactly.

Entries (key "op"):
  begin   token, series, pid, time, before (the state the end check compares)
  write   path, old, new       a /proc/sys or /sys setting about to be written
  create  path                 a file about to be created (the swap file)
  swapon  path                 a swap file about to be enabled
  spawn   name, argv           a process about to be started
  started name, pid, pgid      the process started (its group is killed on restore)
  note    text                 what happened (watchdog breach, ...), for the record
"""
import json
import os
import time


class JournalExists(Exception):
    pass


class Journal:
    def __init__(self, path):
        self.path = path

    @staticmethod
    def exists(path):
        return os.path.exists(path)

    def create(self, header):
        """a new journal; refuses (JournalExists) while one is there"""
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        except FileExistsError:
            raise JournalExists(self.path)
        os.close(fd)
        # the journal's name in its directory is durable too
        dfd = os.open(os.path.dirname(os.path.abspath(self.path)), os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        self.append(dict(header, op="begin"))

    def append(self, entry):
        entry = dict(entry)
        entry.setdefault("time", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        line = json.dumps(entry, sort_keys=True) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, line.encode())
            os.fsync(fd)
        finally:
            os.close(fd)

    def entries(self):
        out = []
        with open(self.path) as f:
            lines = f.read().split("\n")
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except ValueError:
                # the last line cut by a crash in the middle of its write:
                # the change it announced was not made (it comes after)
                if n == len(lines):
                    continue
                raise ValueError("%s:%d: not a journal entry" % (self.path, n))
        return out

    def archive(self, suffix):
        """moves the journal aside once undone: SERIES/journals/journal-SUFFIX"""
        d = os.path.join(os.path.dirname(os.path.abspath(self.path)), "journals")
        os.makedirs(d, exist_ok=True)
        dest = os.path.join(d, "journal-" + suffix)
        os.rename(self.path, dest)
        return dest
