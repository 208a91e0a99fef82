//===- LinearLayout.cpp - layouts as linear maps over GF(2) ---------------===//

#include "tile/Dialect/Tile/IR/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cassert>

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::paddedExtent(int64_t extent) {
  return int64_t(llvm::PowerOf2Ceil(std::max<int64_t>(extent, 1)));
}

LinearLayout::LinearLayout(ArrayRef<int64_t> paddedShape)
    : shape(paddedShape.begin(), paddedShape.end()) {
  for (int64_t extent : shape) {
    (void)extent;
    assert(llvm::isPowerOf2_64(extent) && "padded extents are powers of two");
  }
}

void LinearLayout::addBasis(HWDim dim, Coord basis) {
  assert(basis.size() == shape.size() && "one coordinate per dimension");
  bases[static_cast<unsigned>(dim)].push_back(std::move(basis));
}

void LinearLayout::setBasis(HWDim dim, unsigned bit, Coord basis) {
  bases[static_cast<unsigned>(dim)][bit] = std::move(basis);
}

void LinearLayout::removeBasis(HWDim dim, unsigned bit) {
  auto &list = bases[static_cast<unsigned>(dim)];
  list.erase(list.begin() + bit);
}

LinearLayout::Coord LinearLayout::apply(HWDim dim, int64_t index) const {
  Coord coord(shape.size(), 0);
  for (auto [bit, basis] : llvm::enumerate(getBases(dim)))
    if (index & (int64_t(1) << bit))
      for (unsigned d = 0; d < shape.size(); ++d)
        coord[d] ^= basis[d];
  return coord;
}

LinearLayout::Coord LinearLayout::apply(int64_t reg, int64_t lane,
                                        int64_t warp) const {
  Coord coord = apply(HWDim::Register, reg);
  Coord laneCoord = apply(HWDim::Lane, lane);
  Coord warpCoord = apply(HWDim::Warp, warp);
  for (unsigned d = 0; d < shape.size(); ++d)
    coord[d] ^= laneCoord[d] ^ warpCoord[d];
  return coord;
}

unsigned LinearLayout::getNumOutBits() const {
  unsigned bits = 0;
  for (int64_t extent : shape)
    bits += llvm::Log2_64(extent);
  return bits;
}

uint64_t LinearLayout::flatten(ArrayRef<int64_t> coord) const {
  uint64_t flat = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + coord[d];
  return flat;
}

LinearLayout::Coord LinearLayout::unflatten(uint64_t flat) const {
  Coord coord(shape.size(), 0);
  for (int d = shape.size() - 1; d >= 0; --d) {
    coord[d] = flat % shape[d];
    flat /= shape[d];
  }
  return coord;
}

bool LinearLayout::isSurjective() const {
  SmallVector<uint64_t> columns;
  for (unsigned dim = 0; dim < kNumHWDims; ++dim)
    for (const Coord &basis : bases[dim])
      columns.push_back(flatten(basis));
  return F2Solver(columns).getRank() == getNumOutBits();
}

LinearLayout LinearLayout::permute(ArrayRef<int32_t> order) const {
  SmallVector<int64_t> newShape;
  for (int32_t d : order)
    newShape.push_back(shape[d]);
  LinearLayout result(newShape);
  for (unsigned dim = 0; dim < kNumHWDims; ++dim)
    for (const Coord &basis : bases[dim]) {
      Coord permuted;
      for (int32_t d : order)
        permuted.push_back(basis[d]);
      result.addBasis(static_cast<HWDim>(dim), permuted);
    }
  return result;
}

LinearLayout LinearLayout::dropDim(unsigned dropped) const {
  SmallVector<int64_t> newShape(shape.begin(), shape.end());
  newShape.erase(newShape.begin() + dropped);
  LinearLayout result(newShape);
  for (unsigned dim = 0; dim < kNumHWDims; ++dim)
    for (const Coord &basis : bases[dim]) {
      assert(basis[dropped] == 0 && "only a dimension of extent 1 is dropped");
      Coord rest(basis);
      rest.erase(rest.begin() + dropped);
      result.addBasis(static_cast<HWDim>(dim), rest);
    }
  return result;
}

LinearLayout LinearLayout::insertDim(unsigned inserted) const {
  SmallVector<int64_t> newShape(shape.begin(), shape.end());
  newShape.insert(newShape.begin() + inserted, 1);
  LinearLayout result(newShape);
  for (unsigned dim = 0; dim < kNumHWDims; ++dim)
    for (const Coord &basis : bases[dim]) {
      Coord extended(basis);
      extended.insert(extended.begin() + inserted, 0);
      result.addBasis(static_cast<HWDim>(dim), extended);
    }
  return result;
}

LinearLayout LinearLayout::reshape(ArrayRef<int64_t> newShape) const {
  LinearLayout result(newShape);
  assert(result.getNumOutBits() == getNumOutBits() && "same element count");
  for (unsigned dim = 0; dim < kNumHWDims; ++dim)
    for (const Coord &basis : bases[dim])
      result.addBasis(static_cast<HWDim>(dim),
                      result.unflatten(flatten(basis)));
  return result;
}

LinearLayout LinearLayout::withoutZeroRegisters() const {
  LinearLayout result(*this);
  auto &registers = result.bases[static_cast<unsigned>(HWDim::Register)];
  llvm::erase_if(registers, [](const Coord &basis) {
    return llvm::all_of(basis, [](int64_t c) { return c == 0; });
  });
  return result;
}

LinearLayout::Run LinearLayout::getContiguousRun() const {
  const LinearLayout &layout = *this;
  ArrayRef<LinearLayout::Coord> bases = layout.getBases(HWDim::Register);
  Run run;
  if (bases.empty())
    return run;
  // Register 1 must be the next element along some dimension, register 2
  // the one after, and so on.
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    int64_t length = 1;
    for (const LinearLayout::Coord &basis : bases) {
      bool next = basis[d] == length;
      for (unsigned other = 0; other < layout.getRank(); ++other)
        next = next && (other == d || basis[other] == 0);
      if (!next)
        break;
      length *= 2;
    }
    // Every other basis must keep a group's start a multiple of its length,
    // so that the group is one aligned run of the dimension.
    auto keepsGroupsAligned = [&](int64_t candidate) {
      unsigned runBits = llvm::Log2_64(candidate);
      for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp})
        for (auto [bit, basis] : llvm::enumerate(layout.getBases(dim)))
          if (!(dim == HWDim::Register && bit < runBits) &&
              basis[d] % candidate != 0)
            return false;
      return true;
    };
    while (length > 1 && !keepsGroupsAligned(length))
      length /= 2;
    if (length > run.length)
      run = {d, length};
  }
  return run;
}

std::string LinearLayout::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  static const char *names[] = {"register", "lane", "warp"};
  os << "shape [";
  llvm::interleaveComma(shape, os);
  os << "]";
  for (unsigned dim = 0; dim < kNumHWDims; ++dim) {
    os << " " << names[dim] << " = [";
    llvm::interleaveComma(bases[dim], os, [&](const Coord &basis) {
      os << "[";
      llvm::interleaveComma(basis, os);
      os << "]";
    });
    os << "]";
  }
  return text;
}

//===----------------------------------------------------------------------===//
// F2Solver
//===----------------------------------------------------------------------===//

F2Solver::F2Solver(ArrayRef<uint64_t> columns) {
  assert(columns.size() <= 64 && "combinations are 64-bit masks");
  for (auto [index, column] : llvm::enumerate(columns)) {
    uint64_t vector = column, combination = uint64_t(1) << index;
    // Rows are reduced in insertion order: each clears its pivot bit, and
    // later rows never have an earlier row's pivot bit set.
    for (const Row &row : pivots)
      if (vector & row.pivotBit) {
        vector ^= row.vector;
        combination ^= row.combination;
      }
    if (vector == 0)
      continue;
    uint64_t pivotBit = uint64_t(1) << llvm::Log2_64(vector);
    pivots.push_back({vector, pivotBit, combination});
  }
}

std::optional<uint64_t> F2Solver::solve(uint64_t target) const {
  uint64_t combination = 0;
  for (const Row &row : pivots)
    if (target & row.pivotBit) {
      target ^= row.vector;
      combination ^= row.combination;
    }
  if (target != 0)
    return std::nullopt;
  return combination;
}
