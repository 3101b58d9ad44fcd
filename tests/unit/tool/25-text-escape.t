#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Text output's one escaping rule (text_str() in user/lib/jbuf.h), checked on
# every text line the formatter writes for records, transitions,
# diagnoses and alive records (output_drv.c: comms, tags, paths and
# symbol names with newlines, ESC, every control byte, DEL, backslashes,
# ill-formed UTF-8): each line is valid UTF-8 with no control byte, so no
# name makes a line of its own or drives a terminal; and each escape reads
# back to the byte it stands for (a comm of ESC, newline and "window ok").
. "$(dirname "$0")/tap.sh"
DRV=$BUILD/tests/unit/tool/output_drv

for mode in "" -d -a; do
	"$DRV" $mode | grep -av '^{' >"$tmp/text"
	python3 - "$tmp/text" <<'PY'
import sys
bad = []
for n, line in enumerate(open(sys.argv[1], 'rb').read().split(b'\n'), 1):
    try:
        line.decode('utf-8')
    except UnicodeDecodeError as e:
        bad.append(f'{n}: not UTF-8 ({e})')
    if any(b < 0x20 or b == 0x7f for b in line):
        bad.append(f'{n}: a control byte: {line!r}')
print('\n'.join('# ' + b for b in bad[:5]))
sys.exit(1 if bad else 0)
PY
	ok $? "output_drv ${mode:-(records)}: every text line valid UTF-8, no control byte"
done

# A comm that would forge a line: ESC, a newline and a record of its own.
"$DRV" -C "$(printf '\033[2J\nwindow ok\\')" >"$tmp/one"
is "$(grep -c . "$tmp/one")" 1 "a comm with a newline: one line"
is "$(sed 's/-[0-9].*//' "$tmp/one")" 'window ok      \e[2J\nwindow ok\\' \
	"ESC, the newline and a backslash escaped"
python3 - "$tmp/one" <<'PY'
import sys, re
line = open(sys.argv[1], 'rb').read().decode()
comm = re.match(r'window ok {6}(.*)-\d+ tgid', line).group(1)
names = {'\\': '\\', 'n': '\n', 't': '\t', 'e': '\x1b'}
back = re.sub(r'\\(x[0-9a-f]{2}|.)', lambda m: chr(int(m.group(1)[1:], 16))
              if m.group(1)[0] == 'x' else names[m.group(1)], comm)
sys.exit(0 if back == '\x1b[2J\nwindow ok\\' else 1)
PY
ok $? "... and it reads back to the comm"
tap_done
