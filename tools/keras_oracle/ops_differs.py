"""Cases where keras-cpp differs from Keras 3.15 (JAX, x64) on purpose or by a known bug; ops.py
marks them "keras_cpp_differs" with the reason, so the C++ oracle tests print them instead of
comparing. Every entry is listed in the report of issue 16; none hides a rounding tolerance.
"""

_VALIDATES = ("JAX clamps or drops out-of-range indices without an error; keras-cpp raises "
              "IndexError / ValueError (deliberate: bad input never returns silently wrong data)")
_X64_INT = ("with jax_enable_x64 Keras's JAX sum/prod promote int8/16/32 and bool to int64 "
            "(uint8 to uint64); keras-cpp returns int32 (Keras's result with JAX's default "
            "32-bit mode; keras-cpp has no uint64)")
_X64_WEAK = ("with jax_enable_x64 a Python literal with an integer/bool tensor promotes to a "
             "64-bit type on JAX; keras-cpp follows keras.backend.result_type (32 bits)")

DIFFERS = {
    # Keras raises where keras-cpp computes a result.
    ("numpy_linalg", "cholesky_inverse"): "Keras 3.15.1 bug: ops.cholesky_inverse fails on a "
    "batched (2, 4, 4) input on JAX (broadcast error inside); keras-cpp batches",
    ("numpy_linalg", "cholesky_inverse_upper"): "Keras 3.15.1 bug: ops.cholesky_inverse fails on "
    "a batched (2, 4, 4) input on JAX; keras-cpp batches",
    ("numpy_linalg", "solve_batched_vectors"): "JAX >= 0.5 rejects b of shape (batch, n) (no "
    "batched 1-D solve); keras-cpp solves each batch's vector (NumPy < 2 semantics)",
    ("numpy_reductions", "trapezoid_empty"): "Keras on JAX raises IndexError for an empty "
    "integration axis; keras-cpp returns 0 (NumPy)",
    ("numpy_reductions_sorting", "bincount_2d"): "Keras 3.15.1 on JAX fails on a 2-D input "
    "(shape error); keras-cpp counts per row as Keras documents",
    ("numpy_reductions_sorting", "segment_sum_inferred"): "Keras on JAX requires num_segments; "
    "keras-cpp infers it as max(segment_ids) + 1 (Keras's TensorFlow/torch behaviour)",
    ("numpy_reductions_sorting", "segment_prod_inferred"): "Keras on JAX requires num_segments; "
    "keras-cpp infers it",
    ("numpy_reductions_sorting", "segment_max_inferred"): "Keras on JAX requires num_segments; "
    "keras-cpp infers it",
    ("numpy_reductions_sorting", "segment_min_inferred"): "Keras on JAX requires num_segments; "
    "keras-cpp infers it",
    ("numpy_shape", "pad_circular"): "Keras on JAX raises NotImplementedError for "
    "mode='circular'; keras-cpp implements it (the torch backend's meaning)",
    ("numpy_shape", "split_indices_beyond"): "JAX's split rejects indices past the end; "
    "keras-cpp follows NumPy (empty pieces)",
    ("numpy_shape", "split_indices_decreasing"): "JAX's split rejects decreasing indices; "
    "keras-cpp follows NumPy (empty pieces)",
    ("numpy_shape", "split_indices_negative"): "JAX's split rejects negative indices; "
    "keras-cpp follows NumPy (counts from the end)",
    ("numpy_shape", "slice_update_cast"): "Keras on JAX requires updates of the input's dtype "
    "(TypeError); keras-cpp casts the updates",
    ("nn_ops", "sigmoid_int"): "Keras on JAX raises TypeError for an int32 input; keras-cpp "
    "computes in floatx",
    ("nn_ops", "normalize_int"): "Keras on JAX raises TypeError for an integer input; keras-cpp "
    "computes in floatx",
    ("nn_ops", "scce_axis1"): "Keras 3.15.1 bug: sparse_categorical_crossentropy with axis=1 "
    "fails its own shape check on JAX; keras-cpp honours axis",
    ("ops_image", "affine_one_transform_for_batch"): "Keras on JAX needs one transform per image "
    "(a (1, 8) transform for a batch of 3 fails to reshape); keras-cpp broadcasts it",
    # keras-cpp raises where Keras returns a value.
    ("numpy_reductions", "percentile_q_out_of_range_raises"): "Keras on JAX returns a value "
    "for q outside [0, 100]; keras-cpp raises ValueError (NumPy)",
    ("numpy_reductions", "quantile_q_out_of_range_raises"): "Keras on JAX returns a value for "
    "q outside [0, 1]; keras-cpp raises ValueError (NumPy)",
    ("numpy_reductions_sorting", "bincount_negative_raises"): "JAX drops negative values; "
    "keras-cpp raises ValueError (NumPy)",
    ("numpy_reductions_sorting", "digitize_unordered_raises"): "Keras on JAX accepts "
    "non-monotonic bins; keras-cpp raises ValueError (NumPy)",
    ("numpy_shape", "geomspace_zero"): "Keras on JAX returns NaN/0 for a zero endpoint; "
    "keras-cpp raises ValueError (NumPy)",
    ("numpy_shape", "get_item_adv_out_of_range"): _VALIDATES,
    ("numpy_shape", "take_out_of_range"): _VALIDATES,
    ("numpy_shape", "take_negative_out_of_range"): _VALIDATES,
    ("numpy_shape", "take_along_axis_oob"): _VALIDATES,
    ("numpy_shape", "scatter_oob"): _VALIDATES,
    ("numpy_shape", "slice_oob"): _VALIDATES,
    ("numpy_shape", "slice_update_oob"): _VALIDATES,
    ("numpy_shape", "unravel_index_oob"): _VALIDATES,
    ("nn_ops", "scce_negative_raises"): _VALIDATES,
    ("nn_ops", "scce_out_of_range_raises"): _VALIDATES,
    ("numpy_shape", "pad_bad_mode"): "Keras on JAX passes mode='median' through to jnp.pad; "
    "keras-cpp implements only Keras's documented modes and raises ValueError",
    ("numpy_shape", "select_nonbool"): "Keras on JAX accepts integer conditions; keras-cpp "
    "requires bool (TypeError)",
    ("nn_ops", "one_hot_sparse_raises"): "Keras returns a sparse (BCOO) tensor; keras-cpp has "
    "no sparse tensors and raises NotImplementedError",
    ("nn_conv", "convt_negative_output_padding_raises"): "Keras on JAX accepts "
    "output_padding=-1; keras-cpp raises ValueError",
    # 64-bit results of Keras with jax_enable_x64 (see ops_edge_cases.py).
    **{("edge_cases", f"sum_{t}"): _X64_INT for t in ("int8", "uint8", "int16", "int32", "bool")},
    ("edge_cases", "sum_int8_overflow"): _X64_INT,
    ("edge_cases", "sum_empty_int8"): _X64_INT,
    ("edge_cases", "add_scalar_bool_weak_int"): _X64_WEAK,
    ("edge_cases", "add_scalar_uint8_weak_float"): _X64_WEAK,
    ("edge_cases", "multiply_scalar_int16_weak_float"): _X64_WEAK,
}

_FTZ = ("XLA on CPU flushes float subnormals to zero and jnp.ldexp mishandles exponents past the "
        "float range; keras-cpp is exact (NumPy)")
_INT_DIV0 = ("integer floor_divide by zero: XLA gives -1 / all-ones, keras-cpp 0 (NumPy's "
             "result); the quotient is undefined")
DIFFERS.update({
    # Keras raises on a case keras-cpp computes (found on the second pass).
    ("numpy_elementwise", "rounding_bool_round"): "Keras on JAX raises for round(bool); keras-cpp "
    "returns the bools",
    **{("numpy_elementwise", f"unary_{t}_{op}"): f"Keras on JAX raises TypeError for {op} of an "
       "integer tensor; keras-cpp computes in floatx"
       for t in ("i32", "i64") for op in ("erf", "rsqrt")},
    ("numpy_linalg_products", "einsum_bad_char_raises"): "Keras on JAX accepts the subscripts "
    "'i1->i'; keras-cpp raises ValueError for a digit in subscripts (NumPy)",
    ("nn_ops", "softmax_axes_last_two"): "Keras 3.15.1 bug: softmax with axis=(-2, -1) builds an "
    "invalid transpose on JAX; keras-cpp normalises negative axes",
    ("nn_ops", "log_softmax_axes_last_two"): "Keras 3.15.1 bug: log_softmax with axis=(-2, -1) "
    "builds an invalid transpose on JAX; keras-cpp normalises negative axes",
    ("nn_conv", "max_pool_rank_raises"): "Keras on JAX pools a rank-2 input with no spatial axes; "
    "keras-cpp raises ValueError",
    ("nn_conv", "average_pool_rank_raises"): "Keras on JAX pools a rank-2 input with no spatial "
    "axes; keras-cpp raises ValueError",
    ("nn_conv", "max_pool_too_big_raises"): "Keras on JAX returns an empty result for a window "
    "larger than the input; keras-cpp raises ValueError",
    ("nn_conv", "average_pool_too_big_raises"): "Keras on JAX returns an empty result for a "
    "window larger than the input; keras-cpp raises ValueError",
    # Values: Keras bugs.
    ("numpy_elementwise", "clip_uint8_wide_bounds"): "Keras 3.15.1 bug: clip casts the bounds "
    "-5 and 300 to uint8 (251, 44) and returns [44, 44, 44] for [0, 7, 255]; keras-cpp [0, 7, 255]",
    ("numpy_elementwise", "unary_f32_i0"): "Keras/JAX i0 returns NaN where it overflows "
    "(|x| > ~91 in float32); keras-cpp returns inf (NumPy)",
    ("numpy_elementwise", "ldexp_extremes_f32"): _FTZ,
    ("numpy_elementwise", "ldexp_extremes_f64"): _FTZ,
    ("numpy_elementwise", "divmod_i32"): _INT_DIV0,
    ("numpy_elementwise", "divmod_u8"): _INT_DIV0,
    ("numpy_shape", "saturate_cast_i64_f32"): "Keras 3.15.1 bug: saturate_cast int64 -> float32 "
    "returns -9.22e18 for every element; keras-cpp converts (values are in range)",
    ("nn_ops", "sparsemax"): "Keras 3.15.1 bug on JAX: sparsemax rows do not sum to 1 (all-zero "
    "rows); keras-cpp returns the projection onto the simplex (golden NumPy reference)",
    ("nn_ops", "sparsemax_axis0"): "Keras 3.15.1 sparsemax bug on JAX (see sparsemax)",
    ("nn_ops", "sparsemax_f64"): "Keras 3.15.1 sparsemax bug on JAX (see sparsemax)",
    ("nn_ops", "sparsemax_two"): "Keras 3.15.1 sparsemax bug on JAX (see sparsemax)",
    ("nn_conv", "fold_dilation"): "Keras 3.15.1 bug: fold with dilation (2, 1) returns width 5 "
    "for output_size (7, 6); keras-cpp returns the requested size (torch's fold)",
    # Values: deliberate or to be decided by the lead.
    ("numpy_linalg", "cholesky_reads_lower"): "JAX's cholesky symmetrises a non-symmetric input "
    "((a + a^T) / 2); keras-cpp reads the lower triangle (NumPy/LAPACK)",
    ("numpy_linalg", "eigh"): "the input is not symmetric: JAX's eigh symmetrises it, keras-cpp "
    "reads the lower triangle (NumPy/LAPACK)",
    ("numpy_linalg", "eigh_batched"): "the input is not symmetric: JAX's eigh symmetrises it, "
    "keras-cpp reads the lower triangle (NumPy/LAPACK)",
    ("numpy_elementwise", "clip_int_float_bounds"): "Keras promotes int32 clipped by float "
    "bounds to float (float64 under x64) and keeps 0.5 / 2.5; keras-cpp keeps int32 "
    "(bounds rounded): result dtype and values differ",
    ("numpy_elementwise", "clip_int64_huge_bounds"): "Keras promotes int64 clipped by float "
    "bounds to float64; keras-cpp keeps int64",
    ("numpy_reductions_sorting", "histogram_int"): "Keras returns float32 bin counts for an "
    "integer input (keras-cpp int32)",
    ("numpy_reductions", "prod_int32_wraps"): "with jax_enable_x64 Keras multiplies int32 in "
    "int64 (103079215104); keras-cpp's int32 product wraps to 0 (Keras's 32-bit result)",
    ("edge_cases", "divide_int64"): "with jax_enable_x64 Keras divides int64 in float64; "
    "keras-cpp gives floatx float32 (keras.backend.result_type(int64, float) is float32)",
    ("ops_image", "affine_projective"): "projective transform: Keras's JAX affine_transform "
    "does not divide by k = c0 x + c1 y + 1 (at (4, 5) of a coordinate ramp it samples "
    "(4.15, 5.63) where its docstring's formula gives (3.40, 4.59)); keras-cpp and the golden "
    "reference follow the formula",
})

# Per-case tolerances beyond the defaults, each with its reason (float rounding only).
TOLERANCES = {
    ("numpy_core", "sum_large"): (1e-5, 1e-5, "float32 sum of many terms: XLA's summation order"),
    ("numpy_core", "sum_large_inner"): (1e-5, 1e-5, "float32 sum of many terms: XLA's order"),
    ("numpy_elementwise", "exp_log_edges"): (1e-5, 1e-6, "float32 exp near overflow: XLA's "
                                            "polynomial differs from libm in the last bits"),
    ("numpy_elementwise", "unary_f16"): (2e-3, 1e-4, "float16 sinc: 2 half-precision ulps"),
    ("numpy_reductions", "cumsum_rows_float16"): (1e-2, 1e-3, "Keras accumulates a float16 "
                                                  "cumsum in float16"),
    ("numpy_reductions", "mean_float64"): (1e-6, 1e-7, "Keras computes a float64 mean in "
                                           "float32 (result_type(x, 'float32') maps to 32 bits)"),
    ("nn_ops", "gelu_f16"): (2e-3, 1e-3, "float16 rounding"),
    ("nn_ops", "log_softmax_f16"): (5e-3, 1e-3, "Keras computes float16 log_softmax in float16"),
    ("nn_ops", "layer_norm_plain"): (1e-5, 1e-6, "float32 variance: Keras's two-pass order"),
    ("nn_ops", "layer_norm_f64"): (1e-6, 1e-7, "Keras computes a float64 layer norm's moments "
                                   "in float32"),
    **{("nn_ops", c): (1e-5, 1e-6, "float32 softmax between two matmuls: XLA, the cpu and the "
                        "torch backends sum in other orders")
       for c in ("attention", "attention_bias", "attention_bias_2d", "attention_causal",
                 "attention_causal_rect", "attention_gqa", "attention_gqa_bias_one_head",
                 "attention_mqa", "attention_scale")},
    ("nn_conv", "average_pool2d_float16"): (1e-2, 1e-3, "Keras sums float16 windows in float16"),
    ("ops_image", "affine_uint8"): (0, 1, "uint8 rounding of interpolated half-way values"),
}

# Battery ops split into their own case (so the rest of the battery is still compared).
SPLIT = {("numpy_elementwise", "unary_f32"): {"i0"}}
