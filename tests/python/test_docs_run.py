"""Every command the docs show runs (issue 22 item 7): each `tenet ...` / `build/tenet ...` line of
a fenced code block in README.md and docs/*.md is run with the built CLI from the source tree and
must exit 0; every file it names (an argument that looks like a path) must exist. Outputs
(`--out`, `--output`) go to a temporary directory. A synopsis — a line with placeholders such as
`[--batch B]`, `(--gemm M,N,K | ...)`, `...`, shell variables or globs — is a usage summary, not a
command, and is left out; the test checks that at least 25 commands ran."""
import glob
import os
import re
import shlex
import subprocess

import pytest

from conftest import CLI, SOURCE_DIR, src

DOCS = ["README.md"] + sorted(os.path.relpath(p, SOURCE_DIR) for p in glob.glob(src("docs", "*.md")))
OUTPUT_OPTIONS = {"--out", "--output"}
# Arguments of these options are values, never files.
VALUE_OPTIONS = {"--gemm", "--array", "--arch", "--quant", "--dataflow", "--dataflows", "--bind",
                 "--func", "--phase", "--prompt", "--context", "--batch", "--buffers", "--format",
                 "--tiling-objective", "--objective", "--dequant-rate", "--threads", "--tile",
                 "--timing", "--shard", "--tokens", "--progress", "--front"}


def synopsis(line):
    return bool(re.search(r"\[|\]|\(--|\.\.\.|\$\{?[A-Z_]|<[a-z]|\*", line))


def commands():
    """(document, line number, argument list) of every runnable command in a code block."""
    found = []
    for name in DOCS:
        with open(src(name), encoding="utf-8") as f:
            lines = f.read().splitlines()
        in_block = False
        pending, start = "", 0
        for number, raw in enumerate(lines, 1):
            if raw.strip().startswith("```"):
                in_block = not in_block
                pending = ""
                continue
            if not in_block:
                continue
            text = raw.strip()
            if pending:
                pending += " " + text
            elif re.match(r"(\$ )?(build/)?tenet ", text):
                pending, start = re.sub(r"^\$ ", "", text), number
            else:
                continue
            if pending.endswith("\\"):
                pending = pending[:-1]
                continue
            command, pending = pending, ""
            command = re.sub(r"\s+#.*$", "", command)  # a trailing comment
            if synopsis(command):
                continue
            found.append((name, start, shlex.split(command)[1:]))
    return found


COMMANDS = commands()


def test_the_docs_show_commands():
    assert len(COMMANDS) >= 25, [f"{d}:{n}" for d, n, _ in COMMANDS]


def looks_like_path(arg):
    return ("/" in arg or re.search(r"\.(json|jsonl|txt|log|py|s|p|m|csv)$", arg)) and \
        not arg.startswith("-") and "=" not in arg


@pytest.mark.parametrize("doc,line,args", COMMANDS, ids=[f"{d}:{n}" for d, n, _ in COMMANDS])
def test_doc_command_runs(doc, line, args, tmp_path):
    argv = []
    previous = None
    for arg in args:
        if previous in OUTPUT_OPTIONS:
            arg = str(tmp_path / os.path.basename(arg))
        elif previous not in VALUE_OPTIONS and looks_like_path(arg):
            assert os.path.exists(src(arg)), f"{doc}:{line} names {arg}, which does not exist"
        argv.append(arg)
        previous = arg if arg.startswith("--") else None
    done = subprocess.run([CLI, *argv], capture_output=True, text=True, cwd=SOURCE_DIR,
                          timeout=300)
    assert done.returncode == 0, f"{doc}:{line}: tenet {' '.join(args)}\n{done.stderr[-2000:]}"
