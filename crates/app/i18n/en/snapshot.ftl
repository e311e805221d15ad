# What is wrong with a compiler pass snapshot (the IR Pass Trace's marks and banners, the memory
# map, the pass comparison): one message per `pypto_vocab::SnapshotProblemKind`, `snapshot-<key>`.
# The English is the checks' own message word for word (the CLI's `report` prints it; a test in
# the CLI checks it on one damaged snapshot per kind), Python's wording where Python says it.
# $line is a 1-based line number, $offset a 0-based byte offset (both as text), $count a count.

-snapshot-cut = the file ends inside a statement (cut?)

snapshot-invalid-utf8 = invalid UTF-8 at byte offset { $offset } ({ $byte }; { $count } undecodable { $count ->
        [one] byte
       *[other] bytes
    } in the file, shown as U+FFFD)
snapshot-null-byte = null byte: Python source cannot contain null bytes (damaged file?)
snapshot-unterminated-string = unterminated string literal
snapshot-unterminated-triple-quoted-string = unterminated triple-quoted string literal
snapshot-never-closed = '{ $bracket }' was never closed
snapshot-mismatched-bracket = closing parenthesis '{ $close }' does not match opening parenthesis '{ $open }'
snapshot-mismatched-bracket-on-line = closing parenthesis '{ $close }' does not match opening parenthesis '{ $open }' on line { $line }
snapshot-unmatched-bracket = unmatched '{ $bracket }'
snapshot-too-many-nested = too many nested parentheses
snapshot-expected-indented-block = expected an indented block after the ':' on line { $line }
snapshot-unexpected-indent = unexpected indent
snapshot-unindent-mismatch = unindent does not match any outer indentation level
snapshot-statement-ends-with = invalid syntax: the statement ends with '{ $token }'
snapshot-expected-colon = expected ':'
snapshot-decorator-without-def = invalid syntax: a decorator must be followed by def or class
snapshot-keyword-after-dot = invalid syntax: '{ $keyword }' is a keyword, not a name after '.'
snapshot-invalid-character = invalid character '{ $character }' ({ $code_point })
snapshot-character-after-continuation = unexpected character after line continuation character
snapshot-non-printable-character = invalid non-printable character { $code_point }
snapshot-cut-nothing-follows = { -snapshot-cut }: nothing follows '{ $token }'
snapshot-cut-line-continuation = { -snapshot-cut }: nothing follows the line continuation '\'
snapshot-cut-expected-colon = { -snapshot-cut }: { snapshot-expected-colon }
snapshot-cut-decorator = { -snapshot-cut }: no def or class follows the decorator on line { $line }
snapshot-cut-keyword-after-dot = { -snapshot-cut }: '{ $keyword }' is a keyword, not a name after '.'
snapshot-empty-file = the file is empty: a pass snapshot holds the whole program (cut short, or never written?)
snapshot-ends-mid-line = the file ends mid-line, without the final newline every snapshot has (cut short?)
