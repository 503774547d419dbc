#!/usr/bin/env python3
"""Lists public declarations without a doc comment (development time only).

    python3 tools/public_api_docs.py [--list] [--check] [MODULE ...]

Scans Sources/<Module>/**/*.swift line by line and counts, per module, the
declarations a library user sees: lines whose modifiers include `public` or
`open` (types, functions, initialisers, subscripts, properties, typealiases,
enum cases), plus the members that are public without saying so: the cases
of a public enum and the requirements of a public protocol. `package`,
internal and private declarations are not counted.

A declaration is documented when the lines right above it, skipping only
attribute lines (`@inlinable`, `@discardableResult`, `@available(...)`),
are a `///` comment or end a `/** ... */` comment. A blank line or a `//`
comment in between breaks the link, as it does for the compiler's doc
comment attachment.

It is a careful line scanner, not a parser: strings and comments are removed
before braces are counted (to know which enum or protocol a line is in), and
a declaration is recognised by its modifiers followed by a declaration
keyword at the start of a line. A `public` member of a non-public type is
still counted (the access the line states is what a reader sees).

Checked against the compiler's own view (`swift symbolgraph-extract
-minimum-access-level public` on the built modules, symbols with no
`docComment`): for geometry, raster, PNG, SVG and text both list the same
declarations, except that the symbol graph lends a protocol requirement's
comment to its implementation (an undocumented `static func <` of a
Comparable type counts as documented there, not here), and counts each name
of `case a, b, c` where this counts the line.

--list prints each undocumented declaration as FILE:LINE: TEXT (the format
editors jump to); --check exits 1 when any is undocumented. With MODULE
names, only those modules are scanned. The command modules (executables:
pinmint, PinmintBench, PinmintFuzz) are skipped unless named.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "Sources")
EXECUTABLES = {"pinmint", "PinmintBench", "PinmintFuzz"}

DECLARATION_KEYWORDS = (
    "func|var|let|init|subscript|struct|class|enum|protocol|typealias|case|"
    "extension|actor|associatedtype|deinit|macro|operator|precedencegroup"
)
OTHER_MODIFIERS = (
    "static|final|override|nonisolated|mutating|nonmutating|convenience|"
    "required|indirect|lazy|weak|unowned|dynamic|class|prefix|postfix|infix|"
    "borrowing|consuming|isolated|(?:private|fileprivate|internal|package)\\(set\\)"
)
ATTRIBUTE = r"@\w+(?:\([^()]*\))?"
MODIFIER = rf"(?:{ATTRIBUTE}|public|open|(?:public|open)\(set\)|{OTHER_MODIFIERS})"
DECLARATION = re.compile(
    rf"^\s*((?:{MODIFIER}\s+)*)(?:{DECLARATION_KEYWORDS})\b(?!\s*[:=(.])|^\s*((?:{MODIFIER}\s+)*)init[?!]?\s*[(<]"
)
# A line of attributes and nothing else (`@inlinable`, `@available(macOS 13, *)`);
# a line such as `@inlinable public var x` is a declaration, not an attribute.
ATTRIBUTES_ONLY = re.compile(rf"^(?:{ATTRIBUTE}\s*)+$")
PUBLIC = re.compile(r"(?:^|\s)(?:public|open)(?:\s|$)")
TYPE_HEADER = re.compile(r"^\s*(?:(?:{0})\s+)*(enum|protocol|struct|class|actor|extension)\s".format(MODIFIER))
IMPLICIT_MEMBER = {
    "enum": re.compile(r"^\s*(?:indirect\s+)?case\s"),
    "protocol": re.compile(rf"^\s*(?:(?:{ATTRIBUTE}|static|mutating|nonmutating)\s+)*(?:func|var|init|subscript|associatedtype|typealias)\b"),
}


def strip_code(lines):
    """Each line with string literals and comments blanked out (for braces)."""
    stripped = []
    in_block = 0          # depth of nested /* */
    in_multiline = False  # inside """ ... """
    for line in lines:
        out = []
        i = 0
        while i < len(line):
            if in_block:
                if line.startswith("/*", i):
                    in_block += 1
                    i += 2
                elif line.startswith("*/", i):
                    in_block -= 1
                    i += 2
                else:
                    i += 1
                continue
            if in_multiline:
                if line.startswith('"""', i):
                    in_multiline = False
                    i += 3
                else:
                    i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block = 1
                i += 2
                continue
            if line.startswith('"""', i):
                in_multiline = True
                i += 3
                continue
            if line[i] == '"':
                # A one-line string; interpolations with nested strings are
                # rare enough in declarations that skipping to the next
                # unescaped quote is good enough for counting braces.
                i += 1
                while i < len(line) and line[i] != '"':
                    i += 2 if line[i] == "\\" else 1
                i += 1
                continue
            out.append(line[i])
            i += 1
        stripped.append("".join(out))
    return stripped


def is_documented(lines, index):
    """Whether the declaration at lines[index] has a doc comment above it."""
    j = index - 1
    while j >= 0:
        text = lines[j].strip()
        if ATTRIBUTES_ONLY.match(text):
            j -= 1
            continue
        if text.startswith("///"):
            return True
        if text.endswith("*/"):
            # Walk to the comment's start and see whether it is /** .
            k = j
            while k >= 0 and "/*" not in lines[k]:
                k -= 1
            return k >= 0 and "/**" in lines[k]
        return False
    return False


def scan_file(path):
    """(line number, text, documented) for each public declaration in a file."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    code = strip_code(lines)
    found = []
    # Scopes: one entry per open brace: "enum"/"protocol" when it opened a
    # public enum or protocol body, else None.
    scopes = []
    pending_scope = None  # kind of public type whose "{" has not come yet
    for index, (line, stripped) in enumerate(zip(lines, code)):
        match = DECLARATION.match(stripped)
        counted = False
        if match:
            modifiers = match.group(1) if match.group(1) is not None else (match.group(2) or "")
            if PUBLIC.search(" " + modifiers):
                counted = True
        if not counted and scopes and scopes[-1] in IMPLICIT_MEMBER:
            if IMPLICIT_MEMBER[scopes[-1]].match(stripped):
                counted = True
        if counted:
            found.append((index + 1, line.strip(), is_documented(lines, index)))
        header = TYPE_HEADER.match(stripped)
        if header and header.group(1) in IMPLICIT_MEMBER and counted:
            pending_scope = header.group(1)
        elif header:
            pending_scope = "other"
        for character in stripped:
            if character == "{":
                kind = pending_scope if pending_scope in IMPLICIT_MEMBER else None
                scopes.append(kind)
                pending_scope = None
            elif character == "}":
                if scopes:
                    scopes.pop()
    return found


def modules(names):
    available = sorted(
        name for name in os.listdir(SOURCES)
        if os.path.isdir(os.path.join(SOURCES, name))
        and any(f.endswith(".swift") for _, _, files in os.walk(os.path.join(SOURCES, name)) for f in files)
    )
    if names:
        unknown = [name for name in names if name not in available]
        if unknown:
            sys.exit(f"public_api_docs: no Swift module named {', '.join(unknown)} under Sources/")
        return names
    return [name for name in available if name not in EXECUTABLES]


def main():
    parser = argparse.ArgumentParser(description="Public declarations without a doc comment, per module.")
    parser.add_argument("modules", nargs="*", help="module folders under Sources/ (default: every library module)")
    parser.add_argument("--list", action="store_true", help="print each undocumented declaration as FILE:LINE: TEXT")
    parser.add_argument("--check", action="store_true", help="exit 1 when any declaration is undocumented")
    arguments = parser.parse_args()

    total_public = total_missing = 0
    rows = []
    for module in modules(arguments.modules):
        public = missing = 0
        for folder, _, files in sorted(os.walk(os.path.join(SOURCES, module))):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(folder, name)
                for line_number, text, documented in scan_file(path):
                    public += 1
                    if not documented:
                        missing += 1
                        if arguments.list:
                            print(f"{os.path.relpath(path, ROOT)}:{line_number}: {text}")
        rows.append((module, public, missing))
        total_public += public
        total_missing += missing
    if arguments.list and total_missing:
        print()
    width = max([len(row[0]) for row in rows] + [len("total")])
    print(f"{'module':<{width}}  {'public':>6}  {'undocumented':>12}")
    for module, public, missing in rows:
        print(f"{module:<{width}}  {public:>6}  {missing:>12}")
    print(f"{'total':<{width}}  {total_public:>6}  {total_missing:>12}")
    if arguments.check and total_missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
