//===- Types.cpp - Triton-C types -----------------------------------------===//

#include "Types.h"

using namespace tile::tritonc;

namespace {
std::string mlirScalar(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Void:
    return "none";
  case ScalarKind::Bool:
    return "i1";
  case ScalarKind::Int:
    return "i32";
  case ScalarKind::Long:
    return "i64";
  case ScalarKind::Half:
    return "f16";
  case ScalarKind::Float:
    return "f32";
  case ScalarKind::Double:
    return "f64";
  }
  return "none";
}
} // namespace

std::string tile::tritonc::scalarName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Void:
    return "void";
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::Int:
    return "int";
  case ScalarKind::Long:
    return "long";
  case ScalarKind::Half:
    return "half";
  case ScalarKind::Float:
    return "float";
  case ScalarKind::Double:
    return "double";
  }
  return "?";
}

std::string tile::tritonc::shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

unsigned TcType::elementBytes() const {
  if (pointer)
    return 8;
  switch (scalar) {
  case ScalarKind::Void:
    return 0;
  case ScalarKind::Bool:
    return 1;
  case ScalarKind::Half:
    return 2;
  case ScalarKind::Int:
  case ScalarKind::Float:
    return 4;
  case ScalarKind::Long:
  case ScalarKind::Double:
    return 8;
  }
  return 0;
}

std::string TcType::mlirElement() const {
  if (pointer)
    return "!tile.ptr<" + mlirScalar(scalar) + ">";
  return mlirScalar(scalar);
}

std::string TcType::mlir() const {
  if (!isTile())
    return mlirElement();
  std::string s = "!tile.block<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + mlirElement() + ">";
}

std::string TcType::str() const {
  std::string s = scalarName(scalar) + (pointer ? "*" : "");
  if (isTile())
    s += shapeString(shape);
  return s;
}
