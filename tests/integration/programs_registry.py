"""The registry the program modules (programs_<topic>.py) add to: name -> source text,
and the mindtorch attributes each needs that are not implemented yet; and `sections`, which
runs a runner script for one library and splits what it prints by program."""
import os
import re
import subprocess
import sys

PROGRAMS = {}
NEEDS = {}  # program -> mindtorch attributes it uses that are not implemented yet


def program(name, text, needs=()):
    PROGRAMS[name] = text
    NEEDS[name] = needs


def sections(script, lib, timeout=300):
    """{program name: stdout} of `python script lib`, whose output is delimited by
    `===== name` lines (one subprocess per library: torch's import alone costs seconds)."""
    proc = subprocess.run([sys.executable, script, lib], capture_output=True, text=True,
                          timeout=timeout, cwd=os.path.dirname(os.path.abspath(script)))
    assert proc.returncode == 0, proc.stderr
    parts = re.split(r"^===== (\S+)\n", proc.stdout, flags=re.M)[1:]
    return dict(zip(parts[::2], parts[1::2]))
