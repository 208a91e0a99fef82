//===- LoadStore.cpp - global loads and stores
//------------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

/// Loads the slots of a block in `layout` through `ptrs` (one per slot),
/// `width` elements per access, under `masks` (empty: none) with `others`
/// (empty: zero) where the mask is off. Accesses whose pointer, predicate
/// and `other` equal an earlier one's reuse its result.
SmallVector<Value> KernelEmitter::loadSlots(Location loc, Type pointee,
                                            const Layout &layout, int64_t width,
                                            ArrayRef<Value> ptrs,
                                            ArrayRef<Value> masks,
                                            ArrayRef<Value> others) {
  bool isBool = pointee.isInteger(1);
  Type memoryType = isBool ? builder.getI8Type() : pointee;
  int64_t bytes = elementBytes(memoryType);
  std::map<std::vector<const void *>, SmallVector<Value>> done;

  SmallVector<Value> result(layout.numSlots());
  for (int64_t repeat = 0; repeat < layout.repeats; ++repeat) {
    Value valid = chunkValid(layout, repeat);
    bool predicated = !masks.empty() || !layout.alwaysValid(repeat);
    for (int64_t first = repeat * layout.vector;
         first < (repeat + 1) * layout.vector; first += width) {
      Value pred = valid;
      if (!masks.empty())
        pred = arith::AndIOp::create(builder, loc, pred, masks[first]);
      int64_t totalBytes = width * bytes;
      SmallVector<Value> loaded;
      // Accesses with the same address, mask, `other` and validity share
      // one load (chunks that are always valid share "valid").
      std::vector<const void *> key{
          ptrs[first].getAsOpaquePointer(),
          masks.empty() ? nullptr : masks[first].getAsOpaquePointer(),
          reinterpret_cast<const void *>(
              layout.alwaysValid(repeat) ? intptr_t(-1) : intptr_t(repeat)),
          reinterpret_cast<const void *>(intptr_t(width))};
      for (int64_t lane = 0; lane < width && !others.empty(); ++lane)
        key.push_back(others[first + lane].getAsOpaquePointer());
      if (auto it = done.find(key); it != done.end()) {
        for (int64_t lane = 0; lane < width; ++lane)
          result[first + lane] = it->second[lane];
        continue;
      }
      if (!predicated) {
        // Unmasked: an aligned vector load LLVM turns into ld.global.vN.
        Type accessType =
            width == 1 ? memoryType : VectorType::get({width}, memoryType);
        Value value = LLVM::LoadOp::create(builder, loc, accessType,
                                           ptrs[first], totalBytes);
        for (int64_t lane = 0; lane < width; ++lane)
          loaded.push_back(
              width == 1 ? value
                         : Value(LLVM::ExtractElementOp::create(
                               builder, loc, value, constI32(loc, lane))));
      } else if (totalBytes >= 4 || totalBytes == 2) {
        // Predicated: one PTX instruction that leaves `other` in place
        // where the predicate is off, as Triton does.
        int64_t wordBytes = std::min<int64_t>(totalBytes, 4);
        if (totalBytes == 8 && width == 1)
          wordBytes = 8;
        int64_t words = totalBytes / wordBytes;
        Type wordType = builder.getIntegerType(wordBytes * 8);
        // Words of `other` (or zero): pack the lanes of each word.
        SmallVector<Value> otherWords;
        Type lanesType =
            width == 1 ? memoryType : VectorType::get({width}, memoryType);
        Value otherVector;
        if (!others.empty()) {
          if (width == 1) {
            otherVector =
                isBool ? castScalar(loc, others[first], memoryType, false)
                       : others[first];
          } else {
            otherVector = LLVM::UndefOp::create(builder, loc, lanesType);
            for (int64_t lane = 0; lane < width; ++lane) {
              Value element = others[first + lane];
              if (isBool)
                element = castScalar(loc, element, memoryType, false);
              otherVector = LLVM::InsertElementOp::create(
                  builder, loc, otherVector, element, constI32(loc, lane));
            }
          }
        } else {
          otherVector = LLVM::ZeroOp::create(builder, loc, lanesType);
        }
        Type wordsType =
            words == 1 ? wordType : VectorType::get({words}, wordType);
        Value otherBits =
            LLVM::BitcastOp::create(builder, loc, wordsType, otherVector);
        for (int64_t word = 0; word < words; ++word)
          otherWords.push_back(
              words == 1 ? otherBits
                         : Value(LLVM::ExtractElementOp::create(
                               builder, loc, otherBits, constI32(loc, word))));
        SmallVector<Value> loadedWords = createPredicatedLoad(
            builder, loc, ptrs[first], pred, otherWords, wordBytes * 8);
        Value wordsValue;
        if (words == 1) {
          wordsValue = loadedWords[0];
        } else {
          wordsValue = LLVM::UndefOp::create(builder, loc, wordsType);
          for (int64_t word = 0; word < words; ++word)
            wordsValue = LLVM::InsertElementOp::create(builder, loc, wordsValue,
                                                       loadedWords[word],
                                                       constI32(loc, word));
        }
        Value lanes =
            LLVM::BitcastOp::create(builder, loc, lanesType, wordsValue);
        for (int64_t lane = 0; lane < width; ++lane)
          loaded.push_back(
              width == 1 ? lanes
                         : Value(LLVM::ExtractElementOp::create(
                               builder, loc, lanes, constI32(loc, lane))));
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
      for (int64_t lane = 0; lane < width; ++lane)
        result[first + lane] =
            isBool ? castScalar(loc, loaded[lane], pointee, false)
                   : loaded[lane];
      done[key] = SmallVector<Value>(result.begin() + first,
                                     result.begin() + first + width);
    }
  }
  return result;
}

LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  Location loc = op.getLoc();
  if (reloadOnly.contains(op.getResult()))
    return success();
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

  auto type = cast<BlockType>(resultType);
  Layout layout = getLayout(type, threads);
  int64_t width =
      axisInfo.getAccessWidth(op.getPtr(), op.getMask(), layout.vector);
  SmallVector<Value> masks, others;
  if (op.getMask())
    masks = getSlots(op.getMask());
  if (op.getOther())
    others = getSlots(op.getOther());
  SmallVector<Value> result = loadSlots(loc, pointee, layout, width,
                                        getSlots(op.getPtr()), masks, others);
  slots[op.getResult()] = std::move(result);
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

  auto type = cast<BlockType>(valueType);
  Layout layout = getLayout(type, threads);
  int64_t width =
      axisInfo.getAccessWidth(op.getPtr(), op.getMask(), layout.vector);
  SmallVector<Value> ptrs(getSlots(op.getPtr()));
  SmallVector<Value> values(getSlots(op.getValue()));
  SmallVector<Value> masks;
  if (op.getMask())
    masks = getSlots(op.getMask());

  for (int64_t repeat = 0; repeat < layout.repeats; ++repeat) {
    Value valid = chunkValid(layout, repeat);
    bool predicated = !masks.empty() || !layout.alwaysValid(repeat);
    for (int64_t first = repeat * layout.vector;
         first < (repeat + 1) * layout.vector; first += width) {
      int64_t totalBytes = width * bytes;
      Type lanesType =
          width == 1 ? memoryType : VectorType::get({width}, memoryType);
      Value lanes;
      if (width == 1) {
        lanes = toMemory(values[first]);
      } else {
        lanes = LLVM::UndefOp::create(builder, loc, lanesType);
        for (int64_t lane = 0; lane < width; ++lane)
          lanes = LLVM::InsertElementOp::create(builder, loc, lanes,
                                                toMemory(values[first + lane]),
                                                constI32(loc, lane));
      }
      if (!predicated) {
        LLVM::StoreOp::create(builder, loc, lanes, ptrs[first], totalBytes);
        continue;
      }
      Value pred = valid;
      if (!masks.empty())
        pred = arith::AndIOp::create(builder, loc, pred, masks[first]);
      if (totalBytes < 2) {
        auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, pred, false);
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
        LLVM::StoreOp::create(builder, loc, lanes, ptrs[first]);
        continue;
      }
      int64_t wordBytes = std::min<int64_t>(totalBytes, 4);
      if (totalBytes == 8 && width == 1)
        wordBytes = 8;
      int64_t words = totalBytes / wordBytes;
      Type wordType = builder.getIntegerType(wordBytes * 8);
      Type wordsType =
          words == 1 ? wordType : VectorType::get({words}, wordType);
      Value bits = LLVM::BitcastOp::create(builder, loc, wordsType, lanes);
      SmallVector<Value> wordValues;
      for (int64_t word = 0; word < words; ++word)
        wordValues.push_back(
            words == 1 ? bits
                       : Value(LLVM::ExtractElementOp::create(
                             builder, loc, bits, constI32(loc, word))));
      createPredicatedStore(builder, loc, ptrs[first], pred, wordValues,
                            wordBytes * 8);
    }
  }
  return success();
}
