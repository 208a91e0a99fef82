//===- Gather.cpp - tile.gather and tile.histogram
//-------------------------===//
//
// Both go through shared memory, where any thread can reach any element:
// - gather stages the source block at its row-major indices and each result
//   register reads the element its index picks;
// - histogram clears one i32 counter per bin, each thread adds one (a shared
//   memory atomic) per element it owns, and the result reads the counters.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult KernelEmitter::emitGather(GatherOp op) {
  Location loc = op.getLoc();
  auto srcType = cast<BlockType>(op.getSrc().getType());
  auto resultType = cast<BlockType>(op.getType());
  unsigned axis = op.getAxis();
  BlockLayout src = getBlockLayout(srcType);
  BlockLayout result = getBlockLayout(resultType);
  ArrayRef<int64_t> padded = src.linear.getShape();
  int64_t elements = 1;
  for (int64_t extent : padded)
    elements *= extent;
  Type element = srcType.getElementType();
  reserveShared(elements * elementBytes(storageType(element)));
  Value zero = constI32(loc, 0);
  std::optional<SmallVector<Value>> indices =
      registersIn(op.getIndex(), result);
  if (!indices)
    return op.emitOpError() << "index must be in the result's layout";

  barrier(loc);
  spillToShared(loc, getRegisters(op.getSrc()), src, zero);
  barrier(loc);
  // An index is taken modulo the padded extent (a power of two), so that
  // none reaches outside the staged block.
  Value wrap = constI32(loc, padded[axis] - 1);
  SmallVector<Value> values;
  for (int64_t reg = 0; reg < result.numRegisters(); ++reg) {
    SmallVector<Value> coords = registerCoords(result, reg);
    Value index =
        castScalar(loc, (*indices)[reg], i32Type(), /*unsignedSrc=*/false);
    coords[axis] = arith::AndIOp::create(builder, loc, index, wrap);
    values.push_back(
        loadShared(loc, zero, linearIndex(loc, padded, coords), element));
  }
  registers[op.getResult()] = std::move(values);
  return success();
}

LogicalResult KernelEmitter::emitHistogram(HistogramOp op) {
  Location loc = op.getLoc();
  auto srcType = cast<BlockType>(op.getSrc().getType());
  auto resultType = cast<BlockType>(op.getType());
  BlockLayout src = getBlockLayout(srcType);
  BlockLayout result = getBlockLayout(resultType);
  int64_t bins = resultType.getShape()[0];
  reserveShared(bins * 4);
  Value zero = constI32(loc, 0);

  // Clear the counters: thread t clears bins t, t + threads, ...
  barrier(loc);
  int64_t threads = numWarps * kWarpSize;
  for (int64_t first = 0; first < bins; first += threads) {
    Value bin =
        arith::AddIOp::create(builder, loc, threadId(), constI32(loc, first));
    Value inRange = first + threads <= bins
                        ? Value()
                        : Value(arith::CmpIOp::create(
                              builder, loc, arith::CmpIPredicate::slt, bin,
                              constI32(loc, bins)));
    guarded(loc, inRange, [&] { storeShared(loc, zero, bin, zero); });
  }
  barrier(loc);

  // Count: each element once (by the thread that owns it), in range and
  // where the mask holds.
  SmallVector<Value> values = getRegisters(op.getSrc());
  SmallVector<Value> masks;
  if (Value mask = op.getMask()) {
    std::optional<SmallVector<Value>> in = registersIn(mask, src);
    if (!in)
      return op.emitOpError() << "mask must be in the operand's layout";
    masks = std::move(*in);
  }
  Value one = constI32(loc, 1);
  for (int64_t reg = 0; reg < src.numRegisters(); ++reg) {
    Value owner = ownsRegister(src, reg);
    if (auto constant =
            owner ? owner.getDefiningOp<arith::ConstantOp>() : nullptr)
      if (!cast<BoolAttr>(constant.getValue()).getValue())
        continue;
    Value value = values[reg];
    // One unsigned comparison: negative values are large.
    Value inRange = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, value, constI32(loc, bins));
    Value count = andPredicates(loc, registerValid(src, reg), owner);
    count = andPredicates(loc, count, inRange);
    if (!masks.empty())
      count = andPredicates(loc, count, masks[reg]);
    guarded(loc, count, [&] {
      Value address = sharedAddress(loc, i32Type(), zero, value);
      LLVM::AtomicRMWOp::create(builder, loc, LLVM::AtomicBinOp::add, address,
                                one, LLVM::AtomicOrdering::monotonic);
    });
  }
  barrier(loc);

  SmallVector<Value> counts;
  for (int64_t reg = 0; reg < result.numRegisters(); ++reg) {
    Value bin = registerCoords(result, reg)[0];
    // Padding past the last bin reads a counter of its own, modulo the bins.
    if (registerValid(result, reg))
      bin = arith::RemUIOp::create(builder, loc, bin, constI32(loc, bins));
    counts.push_back(loadShared(loc, zero, bin, i32Type()));
  }
  registers[op.getResult()] = std::move(counts);
  return success();
}
