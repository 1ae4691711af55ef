#!/usr/bin/env python3
"""A SPIR-V module's disassembly with names, line information and the id bound stripped and every
id renumbered in order of first appearance, so that two builds of one shader from differently
arranged sources compare with diff: equal output means the same instructions in the same order.

    tools/spirv-canon.py A.spv > a.txt; tools/spirv-canon.py B.spv > b.txt; diff a.txt b.txt

Needs spirv-dis (Debian: spirv-tools).
"""
import re
import subprocess
import sys

DROPPED = re.compile(r'Op(Line|NoLine|Source|SourceExtension|String|Name|MemberName|ModuleProcessed)\b')


def canonical(path):
    text = subprocess.run(['spirv-dis', '--raw-id', path], capture_output=True, text=True,
                          check=True).stdout
    ids = {}

    def renumber(match):
        return ids.setdefault(match.group(0), '%' + str(len(ids)))

    lines = []
    for line in text.splitlines():
        if DROPPED.search(line) or line.startswith('; Bound'):
            continue
        lines.append(re.sub(r'%\d+', renumber, line).strip())
    return '\n'.join(lines)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: tools/spirv-canon.py MODULE.spv')
    print(canonical(sys.argv[1]))
