"""Reading a pinned commit of a source repository, for the import scripts beside this file."""

import subprocess
import sys


def git(repo: str, *args: str) -> str:
    """git's output for `args` in the clone (or bare mirror) `repo`; on failure, one line naming
    the command and git's own message, and exit status 1."""
    out = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"git {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout
