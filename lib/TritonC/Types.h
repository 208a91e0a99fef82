//===- Types.h - Triton-C types and their tile-dialect spelling -*- C++ -*-===//

#ifndef TILE_LIB_TRITONC_TYPES_H
#define TILE_LIB_TRITONC_TYPES_H

#include "tile/TritonC/AST.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile::tritonc {

/// A checked type: a scalar or pointer element, and a shape (empty for a
/// scalar). A variable's type never changes, which is what lets loops carry
/// variables with fixed types.
struct TcType {
  ScalarKind scalar = ScalarKind::Int;
  bool pointer = false;
  std::vector<int64_t> shape;

  static TcType of(ScalarKind kind) { return TcType{kind, false, {}}; }
  bool isTile() const { return !shape.empty(); }
  bool isFloat() const {
    return !pointer &&
           (scalar == ScalarKind::Half || scalar == ScalarKind::Float ||
            scalar == ScalarKind::Double);
  }
  bool isInteger() const {
    return !pointer &&
           (scalar == ScalarKind::Bool || scalar == ScalarKind::Int ||
            scalar == ScalarKind::Long);
  }
  bool isBool() const { return !pointer && scalar == ScalarKind::Bool; }
  bool isVoid() const { return !pointer && scalar == ScalarKind::Void; }
  TcType element() const { return TcType{scalar, pointer, {}}; }
  TcType withShape(std::vector<int64_t> s) const {
    return TcType{scalar, pointer, std::move(s)};
  }
  TcType withScalar(ScalarKind kind) const {
    return TcType{kind, false, shape};
  }
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  /// Bytes of one element (pointers: 8).
  unsigned elementBytes() const;
  bool operator==(const TcType &o) const {
    return scalar == o.scalar && pointer == o.pointer && shape == o.shape;
  }
  bool operator!=(const TcType &o) const { return !(*this == o); }

  /// The MLIR spelling: `f32`, `!tile.ptr<f16>`, `!tile.block<16x8xf32>`.
  std::string mlir() const;
  /// The MLIR spelling of one element.
  std::string mlirElement() const;
  /// As the user writes it: `float`, `half*`, `float[16, 8]`.
  std::string str() const;
};

std::string scalarName(ScalarKind kind);
std::string shapeString(const std::vector<int64_t> &shape);

} // namespace tile::tritonc

#endif // TILE_LIB_TRITONC_TYPES_H
