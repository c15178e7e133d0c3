"""keras.backend.result_type (Keras 3.15, JAX backend, x64) for every ordered pair of the dtypes
keras-cpp has (include/keras/core/dtype.h), and for each dtype with a Python int, float and bool
literal (weakly typed) on either side; written to tests/oracle/fixtures/result_type.json and
compared with keras::result_type by tests/ops_core/result_type_oracle_test.cpp.

JSON: {"dtypes": [...], "literals": ["python_int", "python_float", "python_bool"],
       "pairs": {"a,b": result, ...}}  where a or b may be a literal (never both).

One deliberate difference (include/keras/core/promotion.h): on every backend but TensorFlow, Keras
maps a 64-bit result to 32 bits (dtypes.BIT64_TO_BIT32_DTYPE, applied even with jax_enable_x64,
although the ops themselves then return 64 bits: float64 + float64 is float64). keras-cpp keeps
64 bits. For the pairs where that map changes the answer, "keras_cpp_differs" holds
{"a,b": [reason, the answer of Keras's lattice without the map]}; the test prints them and
compares keras-cpp with the unmapped answer, so the rest of the lattice is still checked.

Run: ./scripts/oracle.sh result_type
"""

import oracle
import keras
from keras.src.backend.common import dtypes

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "bfloat16", "float32",
          "float64", "complex64", "complex128"]
# Python literals, named as in the JSON (keras-cpp: weak_int, weak_float, a bool Scalar).
LITERALS = {"python_int": int, "python_float": float, "python_bool": bool}

REASON = ("Keras maps 64-bit results to 32 bits on non-TensorFlow backends "
          "(BIT64_TO_BIT32_DTYPE); keras-cpp keeps 64 bits")


def unmapped_result_type(a, b):
    """Keras's lattice answer without the 64-to-32-bit map."""
    saved = dict(dtypes.BIT64_TO_BIT32_DTYPE)
    dtypes.BIT64_TO_BIT32_DTYPE.clear()
    try:
        return str(keras.backend.result_type(a, b))
    finally:
        dtypes.BIT64_TO_BIT32_DTYPE.update(saved)


def main():
    names = DTYPES + list(LITERALS)
    pairs, differs = {}, {}
    for a in names:
        for b in names:
            if a in LITERALS and b in LITERALS:
                continue
            r = keras.backend.result_type(LITERALS.get(a, a), LITERALS.get(b, b))
            pairs[f"{a},{b}"] = str(r)
            full = unmapped_result_type(LITERALS.get(a, a), LITERALS.get(b, b))
            if full != str(r):
                differs[f"{a},{b}"] = [REASON, full]
    oracle.write_json("result_type", {"dtypes": DTYPES, "literals": list(LITERALS),
                                      "pairs": pairs, "keras_cpp_differs": differs})
    print(len(pairs), "pairs,", len(differs), "with the 64-to-32-bit map")


if __name__ == "__main__":
    main()
