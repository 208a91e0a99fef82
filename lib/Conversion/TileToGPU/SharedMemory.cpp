//===- SharedMemory.cpp - shared-memory staging ---------------------------===//
//
// One static `@tile_shared` array per module, sized for the largest use.
// Blocks are staged in the row-major order of their padded shape, so every
// register has a place (no predicates) and runs of registers along the last
// dimension are aligned vector accesses.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "llvm/Support/MathExtras.h"
#include <set>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

Value KernelEmitter::ringBase(Location loc) {
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext(), 3);
  return LLVM::AddressOfOp::create(builder, loc, ptrType, kSharedSymbol);
}

Value KernelEmitter::sharedBase(Location loc) {
  Value base = ringBase(loc);
  int64_t start = scratchStart();
  if (start == 0)
    return base;
  // Rings take multiples of 1024 bytes: swizzled staging keeps its alignment.
  return LLVM::GEPOp::create(builder, loc, base.getType(), builder.getI8Type(),
                             base, ArrayRef<LLVM::GEPArg>{int32_t(start)});
}

Type KernelEmitter::storageType(Type elementType) {
  if (elementType.isInteger(1))
    return builder.getI8Type();
  if (auto tuple = dyn_cast<LLVM::LLVMStructType>(elementType)) {
    SmallVector<Type> fields;
    for (Type field : tuple.getBody())
      fields.push_back(storageType(field));
    return LLVM::LLVMStructType::getLiteral(builder.getContext(), fields);
  }
  return convertElementType(elementType);
}

/// The address of element `index` of an array of `elementType` that starts
/// `byteOffset` bytes into shared memory.
Value KernelEmitter::sharedAddress(Location loc, Type elementType,
                                   Value byteOffset, Value index) {
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext(), 3);
  Value base = LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(),
                                   sharedBase(loc), ValueRange{byteOffset});
  if (isa<LLVM::LLVMStructType>(elementType)) {
    // A struct's bytes, addressed by its size (structFieldOffsets).
    Value offset = arith::MulIOp::create(
        builder, loc, index, constI32(loc, elementBytes(elementType)));
    return LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(), base,
                               ValueRange{offset});
  }
  return LLVM::GEPOp::create(builder, loc, ptrType, storageType(elementType),
                             base, ValueRange{index});
}

void KernelEmitter::storeShared(Location loc, Value byteOffset, Value index,
                                Value value) {
  Type type = value.getType();
  Value address = sharedAddress(loc, type, byteOffset, index);
  if (auto tuple = dyn_cast<LLVM::LLVMStructType>(type)) {
    // Field by field, at the offsets the lowering chose (a named vector:
    // a temporary would die before the loop runs).
    auto ptrType = LLVM::LLVMPointerType::get(builder.getContext(), 3);
    SmallVector<int64_t> offsets = structFieldOffsets(tuple);
    for (auto [i, offset] :
         llvm::enumerate(ArrayRef<int64_t>(offsets).drop_back())) {
      Value field = LLVM::ExtractValueOp::create(builder, loc, value, i);
      if (field.getType().isInteger(1))
        field = castScalar(loc, field, builder.getI8Type(), false);
      Value fieldAddress =
          LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(),
                              address, ArrayRef<LLVM::GEPArg>{int32_t(offset)});
      LLVM::StoreOp::create(builder, loc, field, fieldAddress);
    }
    return;
  }
  if (type.isInteger(1))
    value = castScalar(loc, value, builder.getI8Type(), false);
  LLVM::StoreOp::create(builder, loc, value, address);
}

Value KernelEmitter::loadShared(Location loc, Value byteOffset, Value index,
                                Type elementType) {
  Value address = sharedAddress(loc, elementType, byteOffset, index);
  if (auto tuple = dyn_cast<LLVM::LLVMStructType>(elementType)) {
    auto ptrType = LLVM::LLVMPointerType::get(builder.getContext(), 3);
    Value result = LLVM::UndefOp::create(builder, loc, elementType);
    SmallVector<int64_t> offsets = structFieldOffsets(tuple);
    for (auto [i, offset] :
         llvm::enumerate(ArrayRef<int64_t>(offsets).drop_back())) {
      Type fieldType = tuple.getBody()[i];
      Value fieldAddress =
          LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(),
                              address, ArrayRef<LLVM::GEPArg>{int32_t(offset)});
      Value field = LLVM::LoadOp::create(builder, loc, storageType(fieldType),
                                         fieldAddress);
      if (fieldType.isInteger(1))
        field = castScalar(loc, field, fieldType, false);
      result = LLVM::InsertValueOp::create(builder, loc, result, field, i);
    }
    return result;
  }
  Type storage = storageType(elementType);
  Value value = LLVM::LoadOp::create(builder, loc, storage, address);
  if (elementType.isInteger(1))
    value = castScalar(loc, value, elementType, false);
  return value;
}

void KernelEmitter::storeSharedVector(Location loc, Value byteOffset,
                                      Value index, ArrayRef<Value> values) {
  if (values.size() == 1)
    return storeShared(loc, byteOffset, index, values[0]);
  Type element = values[0].getType();
  Type storage = storageType(element);
  Type vectorType = VectorType::get({int64_t(values.size())}, storage);
  Value vector = LLVM::UndefOp::create(builder, loc, vectorType);
  for (auto [i, value] : llvm::enumerate(values)) {
    Value stored =
        element.isInteger(1) ? castScalar(loc, value, storage, false) : value;
    vector = LLVM::InsertElementOp::create(builder, loc, vector, stored,
                                           constI32(loc, i));
  }
  LLVM::StoreOp::create(builder, loc, vector,
                        sharedAddress(loc, element, byteOffset, index),
                        values.size() * elementBytes(storage));
}

SmallVector<Value>
KernelEmitter::loadSharedVector(Location loc, Value byteOffset, Value index,
                                Type elementType, int64_t count) {
  if (count == 1)
    return {loadShared(loc, byteOffset, index, elementType)};
  Type storage = storageType(elementType);
  Type vectorType = VectorType::get({count}, storage);
  Value vector =
      LLVM::LoadOp::create(builder, loc, vectorType,
                           sharedAddress(loc, elementType, byteOffset, index),
                           count * elementBytes(storage));
  SmallVector<Value> result;
  for (int64_t i = 0; i < count; ++i) {
    Value element =
        LLVM::ExtractElementOp::create(builder, loc, vector, constI32(loc, i));
    if (elementType.isInteger(1))
      element = castScalar(loc, element, elementType, false);
    result.push_back(element);
  }
  return result;
}

SmallVector<Value> KernelEmitter::swizzleCoords(Location loc,
                                                ArrayRef<Value> coords,
                                                const SharedSwizzle &swizzle) {
  SmallVector<Value> result(coords);
  for (const SharedSwizzle::Term &term : swizzle.terms) {
    // The row bit, moved to the column bit.
    Value bit = arith::AndIOp::create(
        builder, loc,
        arith::ShRUIOp::create(builder, loc, coords[term.rowDim],
                               constI32(loc, term.rowBit)),
        constI32(loc, 1));
    Value placed =
        arith::ShLIOp::create(builder, loc, bit, constI32(loc, term.colBit));
    result.back() = arith::XOrIOp::create(builder, loc, result.back(), placed);
  }
  return result;
}

SmallVector<Value> KernelEmitter::stagedIndices(Location loc,
                                                const BlockLayout &layout,
                                                int64_t step,
                                                const SharedSwizzle &swizzle) {
  ArrayRef<int64_t> padded = layout.linear.getShape();
  return registerOffsets(
      loc, layout, step,
      [&](const LinearLayout::Coord &coord) {
        return int64_t(layout.linear.flatten(swizzle.apply(coord)));
      },
      [&](int64_t reg) {
        return linearIndex(
            loc, padded,
            swizzleCoords(loc, registerCoords(layout, reg), swizzle));
      });
}

void KernelEmitter::spillToShared(Location loc, ArrayRef<Value> values,
                                  const BlockLayout &layout, Value byteOffset,
                                  const SharedSwizzle &swizzle) {
  LinearLayout::Run run = layout.linear.getContiguousRun();
  int64_t width = run.dim == layout.getRank() - 1 ? run.length : 1;
  int64_t bytes = elementBytes(storageType(values[0].getType()));
  width = std::min<int64_t>(width, std::max<int64_t>(1, 16 / bytes));
  SmallVector<Value> indices = stagedIndices(loc, layout, width, swizzle);
  std::set<std::vector<int64_t>> written;
  for (int64_t first = 0; first < layout.numRegisters(); first += width) {
    // A register that repeats another's element is not written again.
    LinearLayout::Coord coord = layout.linear.apply(HWDim::Register, first);
    if (!written.insert(std::vector<int64_t>(coord.begin(), coord.end()))
             .second)
      continue;
    storeSharedVector(loc, byteOffset, indices[first / width],
                      values.slice(first, width));
  }
}

SharedSwizzle mlir::tile::lowering::chooseSwizzle(const BlockLayout &dst,
                                                  int64_t elementBytes,
                                                  int64_t readWidth,
                                                  unsigned keptBits) {
  // A warp's access is served 128 bytes at a time: the lanes of one such
  // phase should reach distinct `readWidth`-element slots of a 128-byte
  // line. Lane bases are linear in the staged offset, so greedily, each lane
  // basis that lands on a slot already reached gets a swizzle term: one of
  // its row bits flips a column bit that reaches a new slot.
  const LinearLayout &linear = dst.linear;
  unsigned rank = linear.getRank();
  SharedSwizzle swizzle;
  if (rank < 2)
    return swizzle;
  int64_t accessBytes = readWidth * elementBytes;
  int64_t lanesPerPhase =
      std::min<int64_t>(kWarpSize, std::max<int64_t>(1, 128 / accessBytes));
  unsigned slotShift = llvm::Log2_64(accessBytes);
  unsigned columnBits = llvm::Log2_64(linear.getShape().back());
  // The slot (bits of the byte offset between the access and 128 bytes) of
  // a staged coordinate, under the terms chosen so far.
  auto slotOf = [&](const LinearLayout::Coord &coord) -> uint64_t {
    uint64_t byteOffset = linear.flatten(swizzle.apply(coord)) * elementBytes;
    return (byteOffset & 127) >> slotShift;
  };
  SmallVector<uint64_t> reached;
  std::set<unsigned> usedColumns;
  std::set<std::pair<unsigned, unsigned>> usedRows;
  ArrayRef<LinearLayout::Coord> lanes = linear.getBases(HWDim::Lane);
  for (int64_t i = 0;
       (int64_t(1) << i) < lanesPerPhase && i < int64_t(lanes.size()); ++i) {
    const LinearLayout::Coord &basis = lanes[i];
    if (llvm::all_of(basis, [](int64_t c) { return c == 0; }))
      continue; // a replicated lane reads the same address
    uint64_t slot = slotOf(basis);
    if (slot != 0 && !F2Solver(reached).solve(slot)) {
      reached.push_back(slot);
      continue;
    }
    // Flip a free column bit with one of the basis's row bits.
    std::optional<std::pair<unsigned, unsigned>> row;
    for (unsigned d = 0; d + 1 < rank && !row; ++d)
      if (basis[d] != 0 && llvm::isPowerOf2_64(basis[d]) &&
          !usedRows.count({d, llvm::Log2_64(basis[d])}))
        row = std::make_pair(d, unsigned(llvm::Log2_64(basis[d])));
    if (!row || basis.back() != 0)
      continue;
    for (unsigned bit = keptBits; bit < columnBits; ++bit) {
      if (usedColumns.count(bit))
        continue;
      LinearLayout::Coord flipped(rank, 0);
      flipped.back() = int64_t(1) << bit;
      uint64_t gained = slotOf(flipped);
      if (gained == 0 || F2Solver(reached).solve(gained ^ slot))
        continue;
      swizzle.terms.push_back({row->first, row->second, bit});
      usedColumns.insert(bit);
      usedRows.insert(*row);
      reached.push_back(gained ^ slot);
      break;
    }
  }
  return swizzle;
}
