#pragma once
// Reads and writes the safetensors format (huggingface/safetensors, README "Format"), for the
// trainer's weights with its recipe in `__metadata__`. Native only: the implementation uses
// nlohmann-json, which the wasm build does not see (web/src/core/safetensors.js reads the same files
// in the browser, with the same checks).
//
// Layout of a file of S bytes:
//   bytes [0, 8)          N, the header length: an unsigned 64-bit little-endian integer
//   bytes [8, 8 + N)      the header: UTF-8 JSON, one object
//                           {"__metadata__": {"key": "value", …},              (optional; strings only)
//                            "name": {"dtype": "F32", "shape": [d₀, d₁, …], "data_offsets": [begin, end]},
//                            …}
//                         possibly padded with trailing spaces (the writer pads N to a multiple of 8, so
//                         the data section starts 8-byte aligned)
//   bytes [8 + N, S)      the data section: each tensor's elements in row-major ('C') order,
//                         little-endian, at [begin, end) relative to the section's start.
// A tensor of shape [d₀, …, d_{r−1}] has d₀ · … · d_{r−1} elements (1 for shape [], a scalar; 0 when
// a dimension is 0) of 4 bytes (F32) or 2 bytes (F16, IEEE 754 binary16; BF16, bfloat16: a float32's upper half, as
// Hugging Face checkpoints often store weights), so end − begin is that
// count times the element size. The tensors' byte ranges tile the data section exactly: no overlaps,
// no gaps, no trailing bytes. Values are not checked (NaN and ±Inf may be stored).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attn::train {

// The largest header read, in bytes: the limit of the reference implementation (README "Benefits":
// "a limit on the size of the header of 100MB to prevent parsing extremely large JSON").
inline constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

// How a tensor's elements are stored in the file ("dtype"). In memory they are always float.
enum class StorageType { F32, F16, BF16 };

struct NamedTensor {
  std::string name;                // any UTF-8 string but "__metadata__"
  std::vector<std::size_t> shape;  // [d₀, …, d_{r−1}]; [] for a scalar
  std::vector<float> data;         // (d₀ · … · d_{r−1}) values, row-major: data[i * d₁ + j] for rank 2
  StorageType storage = StorageType::F32;
};

struct SafeTensors {
  std::vector<NamedTensor> tensors;
  std::map<std::string, std::string> metadata;  // the header's "__metadata__"; omitted when empty
};

// The bytes of a safetensors file holding file.tensors, in the given order (their data ranges follow
// each other in that order from offset 0), and file.metadata. F16 tensors are rounded to half
// precision with float_to_half (round to nearest, ties to even), BF16 ones with float_to_bfloat16; F32 values are
// stored bit for bit,
// NaN and ±Inf included. Throws std::invalid_argument naming the tensor if its shape's product
// overflows or differs from data.size(), if its name repeats or is "__metadata__", if it is F16 and a
// value is not finite or beyond half precision's largest value (|x| > 65504), or if a name or a
// metadata key or value is not valid UTF-8.
std::vector<std::uint8_t> write_safetensors(const SafeTensors& file);

// Parses the `size` bytes at `bytes` as a safetensors file whose name (used in messages only) is
// `file_name`. Returns the tensors in the order of their data (by data_offsets; zero-size tensors at
// one offset by name) and the metadata. F32, F16 and BF16 tensors are read (F16 and BF16 widened exactly to
// float, storage = their dtype); other dtypes are refused. Never reads outside [bytes, bytes + size).
// Throws std::invalid_argument, its message starting "<file_name>: ", if the file
//   - is shorter than 8 bytes;
//   - is truncated (N exceeds the S − 8 bytes after the length field) or N > kMaxSafetensorsHeader;
//   - has a header that is not valid UTF-8 JSON, or not a JSON object;
//   - has "__metadata__" that is not an object whose values are all strings;
//   - has a tensor entry that is not an object, lacks "dtype", "shape" or "data_offsets", or holds
//     the wrong JSON type there (dtype a string; shape an array of unsigned integers; data_offsets an
//     array of two unsigned integers, begin ≤ end) — integers written with a fraction or an exponent
//     (1.0, 1e2) are refused;
//   - names a dtype other than "F32", "F16" and "BF16" (the message names it);
//   - has a shape whose element count or byte count overflows size_t, or whose byte count differs
//     from end − begin;
//   - has data_offsets past the end of the data section, tensors that overlap, gaps between them, or
//     bytes after the last one (the tensors do not cover the data section exactly).
// Repeated keys in the header are not an error: the last one counts (a repeated tensor name thus
// leaves the other entry's bytes uncovered, which is refused as a gap or trailing bytes).
SafeTensors read_safetensors(const std::uint8_t* bytes, std::size_t size, const std::string& file_name);

// read_safetensors of the whole file at `path` (named `path` in messages). Throws
// std::invalid_argument "<path>: cannot be read: <reason>" if it cannot be opened or read.
SafeTensors read_safetensors_file(const std::string& path);

// x as IEEE 754 binary16 bits, rounded to nearest, ties to even: values below half the smallest
// subnormal (2⁻²⁵) become ±0, smaller normals become subnormals (steps of 2⁻²⁴), |x| ≥ 65520 becomes
// ±Inf, NaN stays NaN (quiet, same sign). Examples: 1 → 0x3C00, −2 → 0xC000, 0.1 → 0x2E66,
// 65504 → 0x7BFF, 2⁻²⁴ → 0x0001.
std::uint16_t float_to_half(float x);

// x as bfloat16 bits (a float32's sign, exponent and top 7 fraction bits), rounded to nearest, ties to even; ±Inf
// stays, NaN stays NaN (quiet, same sign), finite values past bfloat16's largest become ±Inf. 1 → 0x3F80,
// −2 → 0xC000, 1 + 2⁻⁸ (a tie) → 0x3F80, 1 + 3·2⁻⁸ → 0x3F82. Its value is that float with the low 16 bits 0.
std::uint16_t float_to_bfloat16(float x);

// The binary16 value h as float (exact: every half value is a float). 0x0001 → 2⁻²⁴, 0x7BFF → 65504,
// 0x7C00 → +Inf, 0xFC00 → −Inf, exponent 31 with a nonzero fraction → NaN.
float half_to_float(std::uint16_t h);

}  // namespace attn::train
