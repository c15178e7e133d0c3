"""Renders model.summary() tables with rich exactly as keras/src/utils/summary_utils.py does
(rich.table.Table(show_lines=True) with fixed column widths), for tests/models/summary_test.cpp.
Writes tests/golden/summary_tables.json. Needs Debian's python3-rich."""

import io
import json
import os

import rich.console
import rich.table

from fixture import GOLDEN_DIR


def render(header, positions, justify, rows, line_length):
    widths, current = [], 0
    for pos in positions:
        w = int(pos * line_length) - current
        widths.append(w)
        current += w
    columns = [rich.table.Column(name, justify=justify[i], width=widths[i])
               for i, name in enumerate(header)]
    table = rich.table.Table(*columns, width=line_length, show_lines=True)
    for r in rows:
        table.add_row(*r)
    buf = io.StringIO()
    console = rich.console.Console(file=buf, width=1000, highlight=False, color_system=None,
                                   force_terminal=False)
    console.print(table)
    return buf.getvalue()


SEQ = (["Layer (type)", "Output Shape", "Param #"], [0.45, 0.80, 1.0], ["left", "left", "right"])
FUN = (["Layer (type)", "Output Shape", "Param #", "Connected to"], [0.3, 0.56, 0.74, 1.0],
       ["left", "left", "right", "left"])
cases = [
    ("sequential_88", SEQ, 88, [["dense (Dense)", "(None, 64)", "50,240"],
                                ["dense_1 (Dense)", "(None, 10)", "650"]]),
    ("sequential_76", SEQ, 76, [["conv2d (Conv2D)", "(None, 26, 26, 32)", "320"],
                                ["max_pooling2d (MaxPooling2D)", "(None, 13, 13, 32)", "0"],
                                ["flatten (Flatten)", "(None, 5408)", "0"]]),
    ("wrapping_60", SEQ, 60, [["a_very_long_layer_name_that_does_not_fit_in_the_column (Dense)",
                               "(None, 64)", "50,240"],
                              ["conv (Conv2D) with several words that wrap around",
                               "(None, 10, 10, 10, 10, 10, 10, 10, 10)", "1,234,567,890"],
                              ["dense (Dense)", "?", "0 (unbuilt)"]]),
    ("functional_108", FUN, 108, [["input_layer (InputLayer)", "(None, 4)", "0", "-"],
                                  ["dense (Dense)", "(None, 2)", "10", "input_layer[0][0]"],
                                  ["concatenate (Concatenate)", "(None, 6)", "0",
                                   "input_layer[0][0], dense[0][0]"]]),
]
# show_trainable: positions scaled by 0.9 plus a centered column.
trainable = (SEQ[0] + ["Trainable"], [p * 0.90 for p in SEQ[1]] + [1.0], SEQ[2] + ["center"])
cases.append(("trainable_100", trainable, 100, [["dense (Dense)", "(None, 64)", "50,240", "Y"],
                                               ["dropout (Dropout)", "(None, 64)", "0", "-"]]))

out = []
for name, (header, positions, justify), length, rows in cases:
    out.append({"name": name, "header": header, "positions": positions, "justify": justify,
                "line_length": length, "rows": rows,
                "expected": render(header, positions, justify, rows, length)})
path = os.path.join(GOLDEN_DIR, "summary_tables.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
print(path, len(out), "tables")
