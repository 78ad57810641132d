#!/usr/bin/env python3
"""Sizes of src: files over 1,000 lines and function bodies over 120 lines (a brace-matching
heuristic: a line ending in '{' whose text looks like a function or lambda head opens a body)."""
import os
import re
import sys

MAX_FILE, MAX_FUNC = 1000, 120
head = re.compile(r'^\s*(?!if\b|for\b|while\b|switch\b|else\b|do\b|namespace\b|struct\b|class\b|'
                  r'enum\b|union\b|extern\b|try\b|catch\b)[^;{}]*\)\s*(const\s*)?(noexcept\s*)?'
                  r'(override\s*)?(->\s*[^{]+)?\{\s*$')


def functions(lines):
    """(name line, first, last) of each top-level-most function body found."""
    out, stack = [], []
    for i, line in enumerate(lines):
        code = re.sub(r'//.*', '', line)
        code = re.sub(r'"(\\.|[^"\\])*"', '""', code)
        for ch in code:
            if ch == '{':
                stack.append((i, bool(head.match(code)) and not any(f for _, f in stack)))
            elif ch == '}' and stack:
                start, is_func = stack.pop()
                if is_func:
                    out.append((lines[start].strip(), start + 1, i + 1))
    return out


def main(root):
    bad = 0
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith(('.cpp', '.hpp', '.h', '.c')):
                continue
            path = os.path.join(dirpath, f)
            lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
            if len(lines) - 1 > MAX_FILE:
                print(f'{path}: {len(lines) - 1} lines (> {MAX_FILE})')
                bad += 1
            for name, first, last in functions(lines):
                if last - first + 1 > MAX_FUNC:
                    print(f'{path}:{first}: function of {last - first + 1} lines (> {MAX_FUNC}): '
                          f'{name[:70]}')
                    bad += 1
    print(f'{bad} over the limits')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else 'src'))
