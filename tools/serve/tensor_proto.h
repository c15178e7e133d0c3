#pragma once
// TensorFlow's TensorProto (the tensors of TF Serving's gRPC API) to and from the host arrays a
// ModelServer takes and gives. The dtype on the wire for a model dtype (wire_dtype) is its
// storage dtype's (serve/model_server.h: DT_FLOAT, DT_DOUBLE, DT_INT64, DT_BOOL, DT_STRING),
// except int32, which stays DT_INT32 as TF Serving sends it; GetModelMetadata reports these.

#include <string>

#include "serve/model_server.h"
#include "tensorflow/core/framework/tensor.pb.h"

namespace keras::serving {

/// The DataType a model input or output of `model_dtype` has on the wire.
tensorflow::DataType wire_dtype(DType model_dtype);

/// TensorFlow's name of a DataType ("DT_FLOAT"), for messages.
std::string data_type_name(tensorflow::DataType dtype);

/// The values of `proto` as the input `spec` takes them (its storage dtype), read as
/// TensorFlow reads a TensorProto: `tensor_content` when it is set, else the dtype's typed list,
/// whose last value repeats when it holds fewer than the shape (none: zeros). Any numeric dtype
/// feeds a float input and any integer dtype an integer input; bool and string only their own.
/// ValueError naming `spec.name` for a shape that is not the input's (rank, every dimension
/// but the batch, at least one row), a dtype it cannot take, or a size that does not match.
/// `max_bytes` bounds the array it makes (ValueError beyond).
HostArray host_array_from_proto(const tensorflow::TensorProto& proto, const TensorSpec& spec,
                                size_t max_bytes);

/// `array` (an output of `spec`) as a TensorProto of wire_dtype(spec.dtype): the values in
/// `tensor_content`, strings in `string_val`.
tensorflow::TensorProto proto_from_host_array(const HostArray& array, const TensorSpec& spec);

}  // namespace keras::serving
