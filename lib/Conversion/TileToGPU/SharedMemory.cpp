//===- SharedMemory.cpp - shared-memory staging
//-----------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

Value KernelEmitter::sharedBase(Location loc) {
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext(), 3);
  return LLVM::AddressOfOp::create(builder, loc, ptrType, kSharedSymbol);
}

Type KernelEmitter::sharedStorageType(Type elementType) {
  if (elementType.isInteger(1))
    return builder.getI8Type();
  return convertElementType(elementType);
}

/// The address of element `index` of an array of `elementType` that starts
/// `byteOffset` bytes into shared memory.
Value KernelEmitter::sharedAddress(Location loc, Type elementType,
                                   Value byteOffset, Value index) {
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext(), 3);
  Value base = LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(),
                                   sharedBase(loc), ValueRange{byteOffset});
  return LLVM::GEPOp::create(builder, loc, ptrType,
                             sharedStorageType(elementType), base,
                             ValueRange{index});
}

void KernelEmitter::storeShared(Location loc, Value byteOffset, Value index,
                                Value value) {
  Type type = value.getType();
  Value address = sharedAddress(loc, type, byteOffset, index);
  if (type.isInteger(1))
    value = castScalar(loc, value, builder.getI8Type(), false);
  LLVM::StoreOp::create(builder, loc, value, address);
}

Value KernelEmitter::loadShared(Location loc, Value byteOffset, Value index,
                                Type elementType) {
  Value address = sharedAddress(loc, elementType, byteOffset, index);
  Type storage = sharedStorageType(elementType);
  Value value = LLVM::LoadOp::create(builder, loc, storage, address);
  if (elementType.isInteger(1))
    value = castScalar(loc, value, elementType, false);
  return value;
}

void KernelEmitter::spillToShared(Location loc, Value value, Value byteOffset) {
  auto type = cast<BlockType>(value.getType());
  Layout layout = getLayout(type, threads);
  SmallVector<Value> values(getSlots(value));
  for (int64_t repeat = 0; repeat < layout.repeats; ++repeat) {
    auto writeChunk = [&]() {
      for (int64_t slot = repeat * layout.vector;
           slot < (repeat + 1) * layout.vector; ++slot) {
        Value linear = linearIndex(loc, layout.shape, slotCoords(layout, slot));
        storeShared(loc, byteOffset, linear, values[slot]);
      }
    };
    if (layout.alwaysValid(repeat)) {
      writeChunk();
      continue;
    }
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{},
                                  chunkValid(layout, repeat), false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    pushScope();
    writeChunk();
    popScope();
  }
}

/// Whether a shape op moves elements between threads: broadcast and trans
/// always do; expand_dims and reshape only between layouts of different
