"""Opens the files keras-cpp's save_img wrote (tests/utils/image_utils_test.cpp writes them to
$TMPDIR/keras_cpp_save_img) with PIL and compares them with the files Keras's save_img wrote
for the same arrays (tests/oracle/fixtures/images/saved): equal pixels, and for JPEG equal bytes.

    python tools/keras_oracle/check_saved_images.py [DIR]
"""

import os
import sys
import tempfile

import numpy as np
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PIL_DIR = os.path.join(ROOT, "tests", "oracle", "fixtures", "images", "saved")


def main():
    ours_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tempfile.gettempdir(),
                                                                  "keras_cpp_save_img")
    failures = 0
    for name in sorted(os.listdir(PIL_DIR)):
        ours_path = os.path.join(ours_dir, name)
        if not os.path.exists(ours_path):
            print(f"{name}: missing from {ours_dir} (run test_utils --gtest_filter=SaveImg.*)")
            failures += 1
            continue
        theirs = Image.open(os.path.join(PIL_DIR, name))
        ours = Image.open(ours_path)
        # keras-cpp writes grayscale BMP as 24-bit (stb_image_write); PIL as 8-bit: compare L.
        if theirs.mode != ours.mode:
            ours = ours.convert(theirs.mode)
        same = np.array_equal(np.asarray(ours), np.asarray(theirs))
        note = ""
        if name.endswith(".jpg"):
            with open(ours_path, "rb") as a, open(os.path.join(PIL_DIR, name), "rb") as b:
                note = ", same bytes" if a.read() == b.read() else ", different bytes"
        print(f"{name}: {'equal' if same else 'DIFFERENT'} pixels{note}")
        failures += not same
    print(f"{len(os.listdir(PIL_DIR)) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
