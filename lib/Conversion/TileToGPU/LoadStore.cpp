//===- LoadStore.cpp - global loads and stores ----------------------------===//
//
// A block access is one access per group of `width` registers that hold
// consecutive elements (LinearLayout::getContiguousRun): an aligned
// `llvm.load`/`llvm.store` of `vector<width x T>` when nothing masks it (NVPTX
// emits `ld.global.v4` etc.), and one predicated PTX instruction otherwise
// (PTXAsm.h). The width is the widest that the layout's registers, the
// addresses' contiguity and alignment, the mask's constancy and the extent
// allow.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"

#include "tile/Analysis/AccessWidth.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

int64_t KernelEmitter::accessWidth(Value ptr, Value mask,
                                   const BlockLayout &layout) {
  return getAccessWidth(axisInfo, ptr, mask, layout.linear);
}

Value KernelEmitter::ownsRegister(const BlockLayout &layout, int64_t reg) {
  // A basis that adds nothing to the bases before it (registers, then lanes,
  // then warps) only repeats elements: the copy with that bit clear writes.
  SmallVector<uint64_t> columns;
  int64_t repeatedRegisters = 0, repeatedThreadBits = 0;
  unsigned tidBit = 0;
  for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp}) {
    for (auto [bit, basis] : llvm::enumerate(layout.linear.getBases(dim))) {
      uint64_t column = layout.linear.flatten(basis);
      bool repeats = F2Solver(columns).solve(column).has_value();
      columns.push_back(column);
      if (dim == HWDim::Register)
        repeatedRegisters |= repeats ? int64_t(1) << bit : 0;
      else
        repeatedThreadBits |= repeats ? int64_t(1) << tidBit : 0;
      if (dim != HWDim::Register)
        ++tidBit;
    }
  }
  Location loc = kernel.getLoc();
  if (reg & repeatedRegisters)
    return constBool(loc, false);
  if (repeatedThreadBits == 0)
    return {};
  Value masked = arith::AndIOp::create(builder, loc, tid,
                                       constI32(loc, repeatedThreadBits));
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, masked,
                               constI32(loc, 0));
}

/// Loads the registers of a block in `layout` through `ptrs` (one per
/// register), `width` elements per access, under `masks` (empty: none) with
/// `others` (empty: zero) where the mask is off. Accesses whose pointer,
/// predicate and `other` equal an earlier one's reuse its result.
SmallVector<Value> KernelEmitter::loadRegisters(
    Location loc, Type pointee, const BlockLayout &layout, int64_t width,
    ArrayRef<Value> ptrs, ArrayRef<Value> masks, ArrayRef<Value> others) {
  bool isBool = pointee.isInteger(1);
  Type memoryType = isBool ? builder.getI8Type() : pointee;
  int64_t bytes = elementBytes(memoryType);
  std::map<std::vector<const void *>, SmallVector<Value>> done;

  SmallVector<Value> result(layout.numRegisters());
  for (int64_t first = 0; first < layout.numRegisters(); first += width) {
    Value pred = registerValid(layout, first);
    if (!masks.empty())
      pred = andPredicates(loc, pred, masks[first]);
    int64_t totalBytes = width * bytes;
    SmallVector<Value> loaded;
    // Accesses with the same address, predicate and `other` share one load
    // (registers that repeat an element have equal addresses and masks).
    std::vector<const void *> key{
        ptrs[first].getAsOpaquePointer(),
        pred ? pred.getAsOpaquePointer() : nullptr,
        reinterpret_cast<const void *>(intptr_t(width))};
    for (int64_t i = 0; i < width && !others.empty(); ++i)
      key.push_back(others[first + i].getAsOpaquePointer());
    if (auto it = done.find(key); it != done.end()) {
      for (int64_t i = 0; i < width; ++i)
        result[first + i] = it->second[i];
      continue;
    }
    Type lanesType =
        width == 1 ? memoryType : VectorType::get({width}, memoryType);
    auto extractLanes = [&](Value lanes) {
      for (int64_t i = 0; i < width; ++i)
        loaded.push_back(width == 1
                             ? lanes
                             : Value(LLVM::ExtractElementOp::create(
                                   builder, loc, lanes, constI32(loc, i))));
    };
    if (!pred) {
      // Unmasked: an aligned vector load LLVM turns into ld.global.vN.
      extractLanes(LLVM::LoadOp::create(builder, loc, lanesType, ptrs[first],
                                        totalBytes));
    } else if (totalBytes >= 2) {
      // Predicated: one PTX instruction that leaves `other` in place where
      // the predicate is off, as Triton does.
      int64_t wordBytes = std::min<int64_t>(totalBytes, 4);
      if (totalBytes == 8 && width == 1)
        wordBytes = 8;
      int64_t words = totalBytes / wordBytes;
      Type wordType = builder.getIntegerType(wordBytes * 8);
      Type wordsType =
          words == 1 ? wordType : VectorType::get({words}, wordType);
      // Words of `other` (or zero): pack the lanes of each word.
      Value otherVector;
      if (others.empty()) {
        otherVector = LLVM::ZeroOp::create(builder, loc, lanesType);
      } else if (width == 1) {
        otherVector = isBool ? castScalar(loc, others[first], memoryType, false)
                             : others[first];
      } else {
        otherVector = LLVM::UndefOp::create(builder, loc, lanesType);
        for (int64_t i = 0; i < width; ++i) {
          Value element = others[first + i];
          if (isBool)
            element = castScalar(loc, element, memoryType, false);
          otherVector = LLVM::InsertElementOp::create(
              builder, loc, otherVector, element, constI32(loc, i));
        }
      }
      Value otherBits =
          LLVM::BitcastOp::create(builder, loc, wordsType, otherVector);
      SmallVector<Value> otherWords;
      for (int64_t word = 0; word < words; ++word)
        otherWords.push_back(
            words == 1 ? otherBits
                       : Value(LLVM::ExtractElementOp::create(
                             builder, loc, otherBits, constI32(loc, word))));
      SmallVector<Value> loadedWords = createPredicatedLoad(
          builder, loc, ptrs[first], pred, otherWords, wordBytes * 8);
      Value wordsValue = loadedWords[0];
      if (words > 1) {
        wordsValue = LLVM::UndefOp::create(builder, loc, wordsType);
        for (int64_t word = 0; word < words; ++word)
          wordsValue = LLVM::InsertElementOp::create(
              builder, loc, wordsValue, loadedWords[word], constI32(loc, word));
      }
      extractLanes(
          LLVM::BitcastOp::create(builder, loc, lanesType, wordsValue));
    } else {
      // Single bytes: a branch around a plain load.
      auto ifOp =
          scf::IfOp::create(builder, loc, TypeRange{memoryType}, pred, true);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      scf::YieldOp::create(
          builder, loc,
          Value(LLVM::LoadOp::create(builder, loc, memoryType, ptrs[first])));
      builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
      Value other =
          others.empty()
              ? Value(LLVM::ZeroOp::create(builder, loc, memoryType))
              : (isBool ? castScalar(loc, others[first], memoryType, false)
                        : others[first]);
      scf::YieldOp::create(builder, loc, other);
      loaded.push_back(ifOp.getResult(0));
    }
    for (int64_t i = 0; i < width; ++i)
      result[first + i] =
          isBool ? castScalar(loc, loaded[i], pointee, false) : loaded[i];
    done[key] = SmallVector<Value>(result.begin() + first,
                                   result.begin() + first + width);
  }
  return result;
}

LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  Location loc = op.getLoc();
  Type resultType = op.getResult().getType();
  Type pointee = getElementTypeOrSelf(resultType);
  bool isBool = pointee.isInteger(1);
  Type memoryType = isBool ? builder.getI8Type() : pointee;

  // A scalar load: every thread reads the same address.
  if (!isa<BlockType>(resultType)) {
    Value ptr = getScalar(op.getPtr());
    auto loadIt = [&]() -> Value {
      Value value = LLVM::LoadOp::create(builder, loc, memoryType, ptr);
      return isBool ? castScalar(loc, value, pointee, false) : value;
    };
    if (!op.getMask()) {
      scalars.map(op.getResult(), loadIt());
      return success();
    }
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{pointee},
                                  getScalar(op.getMask()), true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(builder, loc, loadIt());
    builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value other = op.getOther()
                      ? getScalar(op.getOther())
                      : Value(LLVM::ZeroOp::create(builder, loc, pointee));
    scf::YieldOp::create(builder, loc, other);
    scalars.map(op.getResult(), ifOp.getResult(0));
    return success();
  }

  BlockLayout layout = getBlockLayout(cast<BlockType>(resultType));
  int64_t width = accessWidth(op.getPtr(), op.getMask(), layout);
  std::optional<SmallVector<Value>> ptrs = registersIn(op.getPtr(), layout);
  std::optional<SmallVector<Value>> masks, others;
  if (op.getMask())
    masks = registersIn(op.getMask(), layout);
  if (op.getOther())
    others = registersIn(op.getOther(), layout);
  if (!ptrs || (op.getMask() && !masks) || (op.getOther() && !others))
    return op.emitOpError()
           << "has pointers, mask or other in another layout than its result";
  registers[op.getResult()] = loadRegisters(
      loc, pointee, layout, width, *ptrs, masks ? *masks : ArrayRef<Value>(),
      others ? *others : ArrayRef<Value>());
  return success();
}

LogicalResult KernelEmitter::emitStore(StoreOp op) {
  Location loc = op.getLoc();
  Type valueType = op.getValue().getType();
  Type pointee = getElementTypeOrSelf(valueType);
  bool isBool = pointee.isInteger(1);
  Type memoryType = isBool ? builder.getI8Type() : pointee;
  int64_t bytes = elementBytes(memoryType);
  auto toMemory = [&](Value value) {
    return isBool ? castScalar(loc, value, memoryType, false) : value;
  };

  if (!isa<BlockType>(valueType)) {
    Value ptr = getScalar(op.getPtr());
    Value value = toMemory(getScalar(op.getValue()));
    if (!op.getMask()) {
      LLVM::StoreOp::create(builder, loc, value, ptr);
      return success();
    }
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{},
                                  getScalar(op.getMask()), false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    LLVM::StoreOp::create(builder, loc, value, ptr);
    return success();
  }

  BlockLayout layout = getBlockLayout(cast<BlockType>(valueType));
  int64_t width = accessWidth(op.getPtr(), op.getMask(), layout);
  std::optional<SmallVector<Value>> ptrs = registersIn(op.getPtr(), layout);
  std::optional<SmallVector<Value>> values = registersIn(op.getValue(), layout);
  std::optional<SmallVector<Value>> masks;
  if (op.getMask())
    masks = registersIn(op.getMask(), layout);
  if (!ptrs || !values || (op.getMask() && !masks))
    return op.emitOpError()
           << "has pointers or mask in another layout than its value";

  for (int64_t first = 0; first < layout.numRegisters(); first += width) {
    // Only one copy of a replicated element is written.
    Value owner = ownsRegister(layout, first);
    if (owner)
      if (auto constant = owner.getDefiningOp<arith::ConstantOp>())
        if (!cast<BoolAttr>(constant.getValue()).getValue())
          continue;
    Value pred = andPredicates(loc, registerValid(layout, first), owner);
    if (masks)
      pred = andPredicates(loc, pred, (*masks)[first]);
    int64_t totalBytes = width * bytes;
    Type lanesType =
        width == 1 ? memoryType : VectorType::get({width}, memoryType);
    Value lanes;
    if (width == 1) {
      lanes = toMemory((*values)[first]);
    } else {
      lanes = LLVM::UndefOp::create(builder, loc, lanesType);
      for (int64_t i = 0; i < width; ++i)
        lanes = LLVM::InsertElementOp::create(builder, loc, lanes,
                                              toMemory((*values)[first + i]),
                                              constI32(loc, i));
    }
    Value ptr = (*ptrs)[first];
    if (!pred) {
      LLVM::StoreOp::create(builder, loc, lanes, ptr, totalBytes);
      continue;
    }
    if (totalBytes < 2) {
      auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, pred, false);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      LLVM::StoreOp::create(builder, loc, lanes, ptr);
      continue;
    }
    int64_t wordBytes = std::min<int64_t>(totalBytes, 4);
    if (totalBytes == 8 && width == 1)
      wordBytes = 8;
    int64_t words = totalBytes / wordBytes;
    Type wordType = builder.getIntegerType(wordBytes * 8);
    Type wordsType = words == 1 ? wordType : VectorType::get({words}, wordType);
    Value bits = LLVM::BitcastOp::create(builder, loc, wordsType, lanes);
    SmallVector<Value> wordValues;
    for (int64_t word = 0; word < words; ++word)
      wordValues.push_back(words == 1
                               ? bits
                               : Value(LLVM::ExtractElementOp::create(
                                     builder, loc, bits, constI32(loc, word))));
    createPredicatedStore(builder, loc, ptr, pred, wordValues, wordBytes * 8);
  }
  return success();
}
