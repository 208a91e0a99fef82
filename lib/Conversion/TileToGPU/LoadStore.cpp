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

#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

MemoryHints mlir::tile::lowering::memoryHints(std::optional<StringRef> cache,
                                              std::optional<StringRef> evict,
                                              bool isVolatile) {
  // The verifier allows one of a cache operator, an eviction priority and
  // volatile: PTX combines none of them.
  MemoryHints hints;
  if (cache)
    hints.hint = ("." + *cache).str();
  else if (evict)
    hints.hint = (".L1::" + *evict).str();
  hints.isVolatile = isVolatile;
  return hints;
}

int64_t KernelEmitter::accessWidth(Value ptr, Value mask,
                                   const BlockLayout &layout) {
  return getAccessWidth(axisInfo, ptr, mask, layout.linear);
}

std::optional<Value> KernelEmitter::writePredicate(Location loc,
                                                   const BlockLayout &layout,
                                                   int64_t reg) {
  Value owner = ownsRegister(layout, reg);
  if (owner)
    if (auto constant = owner.getDefiningOp<arith::ConstantOp>())
      if (!cast<BoolAttr>(constant.getValue()).getValue())
        return std::nullopt;
  return andPredicates(loc, registerValid(layout, reg), owner);
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
SmallVector<Value>
KernelEmitter::loadRegisters(Location loc, Type pointee,
                             const BlockLayout &layout, int64_t width,
                             ArrayRef<Value> ptrs, ArrayRef<Value> masks,
                             ArrayRef<Value> others, const MemoryHints &hints) {
  bool isBool = pointee.isInteger(1);
  Type memoryType = storageType(pointee);
  int64_t bytes = elementBytes(memoryType);
  std::map<std::vector<const void *>, SmallVector<Value>> done;

  SmallVector<Value> result(layout.numRegisters());
  for (int64_t first = 0; first < layout.numRegisters(); first += width) {
    Value pred = registerValid(layout, first);
    if (!masks.empty())
      pred = andPredicates(loc, pred, masks[first]);
    if (!pred && !hints.hint.empty()) // a cache hint needs the PTX instruction
      pred = constBool(loc, true);
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
                                        totalBytes, hints.isVolatile));
    } else if (totalBytes >= 2 || !hints.hint.empty()) {
      // Predicated: one PTX instruction that leaves `other` in place where
      // the predicate is off, as Triton does.
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
      extractLanes(loadWords(loc, ptrs[first], pred, otherVector, hints));
    } else {
      // Single bytes: a branch around a plain load.
      auto ifOp =
          scf::IfOp::create(builder, loc, TypeRange{memoryType}, pred, true);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      scf::YieldOp::create(
          builder, loc,
          Value(LLVM::LoadOp::create(builder, loc, memoryType, ptrs[first], 1,
                                     hints.isVolatile)));
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

//===----------------------------------------------------------------------===//
// Atomic loads and stores
//===----------------------------------------------------------------------===//

/// LLVM's ordering and sync scope for an atomic load's or store's order;
/// NVPTX makes them ld.acquire.gpu, st.release.cta, ld.relaxed.sys, ...
static std::pair<LLVM::AtomicOrdering, StringRef> llvmOrder(MemSemantic sem,
                                                            MemScope scope) {
  LLVM::AtomicOrdering ordering =
      sem == MemSemantic::relaxed   ? LLVM::AtomicOrdering::monotonic
      : sem == MemSemantic::acquire ? LLVM::AtomicOrdering::acquire
                                    : LLVM::AtomicOrdering::release;
  StringRef syncScope = scope == MemScope::cta   ? "block"
                        : scope == MemScope::gpu ? "device"
                                                 : "";
  return {ordering, syncScope};
}

LogicalResult KernelEmitter::emitAtomicLoad(LoadOp op) {
  Location loc = op.getLoc();
  // (Named, not bound: lambdas below capture them.)
  std::pair<LLVM::AtomicOrdering, StringRef> order =
      llvmOrder(*op.getSem(), *op.getScope());
  LLVM::AtomicOrdering ordering = order.first;
  StringRef syncScope = order.second;
  Type pointee =
      convertElementType(getElementTypeOrSelf(op.getResult().getType()));
  bool isBool = pointee.isInteger(1);
  Type memoryType = storageType(pointee);
  unsigned bytes = elementBytes(memoryType);
  // One element per instruction, where `pred` holds (0 elsewhere).
  auto loadOne = [&](Value ptr, Value pred) -> Value {
    auto load = [&]() -> Value {
      return LLVM::LoadOp::create(builder, loc, memoryType, ptr, bytes,
                                  /*isVolatile=*/false,
                                  /*isNonTemporal=*/false,
                                  /*isInvariant=*/false,
                                  /*isInvariantGroup=*/false, ordering,
                                  syncScope);
    };
    Value value;
    if (!pred) {
      value = load();
    } else {
      auto ifOp =
          scf::IfOp::create(builder, loc, TypeRange{memoryType}, pred, true);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      scf::YieldOp::create(builder, loc, load());
      builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(
          builder, loc, Value(LLVM::ZeroOp::create(builder, loc, memoryType)));
      value = ifOp.getResult(0);
    }
    return isBool ? castScalar(loc, value, pointee, false) : value;
  };
  if (!isa<BlockType>(op.getResult().getType())) {
    scalars.map(op.getResult(),
                loadOne(getScalar(op.getPtr()),
                        op.getMask() ? getScalar(op.getMask()) : Value()));
    return success();
  }
  BlockLayout layout =
      getBlockLayout(cast<BlockType>(op.getResult().getType()));
  std::optional<SmallVector<Value>> ptrs = registersIn(op.getPtr(), layout);
  std::optional<SmallVector<Value>> masks;
  if (op.getMask())
    masks = registersIn(op.getMask(), layout);
  if (!ptrs || (op.getMask() && !masks))
    return op.emitOpError()
           << "has pointers or mask in another layout than its result";
  // A thread's copies of one element are one load: they must agree.
  std::map<uint64_t, Value> loaded;
  SmallVector<Value> result;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    uint64_t element =
        layout.linear.flatten(layout.linear.apply(HWDim::Register, reg));
    auto [it, inserted] = loaded.try_emplace(element, Value());
    if (inserted) {
      Value pred = registerValid(layout, reg);
      if (masks)
        pred = andPredicates(loc, pred, (*masks)[reg]);
      it->second = loadOne((*ptrs)[reg], pred);
    }
    result.push_back(it->second);
  }
  registers[op.getResult()] = std::move(result);
  return success();
}

LogicalResult KernelEmitter::emitAtomicStore(StoreOp op) {
  Location loc = op.getLoc();
  // (Named, not bound: lambdas below capture them.)
  std::pair<LLVM::AtomicOrdering, StringRef> order =
      llvmOrder(*op.getSem(), *op.getScope());
  LLVM::AtomicOrdering ordering = order.first;
  StringRef syncScope = order.second;
  Type pointee =
      convertElementType(getElementTypeOrSelf(op.getValue().getType()));
  bool isBool = pointee.isInteger(1);
  Type memoryType = storageType(pointee);
  unsigned bytes = elementBytes(memoryType);
  auto storeOne = [&](Value ptr, Value value, Value pred) {
    if (isBool)
      value = castScalar(loc, value, memoryType, false);
    guarded(loc, pred, [&] {
      LLVM::StoreOp::create(builder, loc, value, ptr, bytes,
                            /*isVolatile=*/false, /*isNonTemporal=*/false,
                            /*isInvariantGroup=*/false, ordering, syncScope);
    });
  };
  if (!isa<BlockType>(op.getValue().getType())) {
    // One thread stores a scalar, as tile.store does.
    Value pred = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       threadId(), constI32(loc, 0));
    if (op.getMask())
      pred = andPredicates(loc, pred, getScalar(op.getMask()));
    storeOne(getScalar(op.getPtr()), getScalar(op.getValue()), pred);
    return success();
  }
  BlockLayout layout = getBlockLayout(cast<BlockType>(op.getValue().getType()));
  std::optional<SmallVector<Value>> ptrs = registersIn(op.getPtr(), layout);
  std::optional<SmallVector<Value>> values = registersIn(op.getValue(), layout);
  std::optional<SmallVector<Value>> masks;
  if (op.getMask())
    masks = registersIn(op.getMask(), layout);
  if (!ptrs || !values || (op.getMask() && !masks))
    return op.emitOpError()
           << "has pointers or mask in another layout than its value";
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    // Only one copy of a replicated element is written.
    std::optional<Value> writes = writePredicate(loc, layout, reg);
    if (!writes)
      continue;
    Value pred = *writes;
    if (masks)
      pred = andPredicates(loc, pred, (*masks)[reg]);
    storeOne((*ptrs)[reg], (*values)[reg], pred);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tile.load and tile.store
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  if (op.getSem())
    return emitAtomicLoad(op);
  Location loc = op.getLoc();
  Type resultType = op.getResult().getType();
  Type pointee = convertElementType(getElementTypeOrSelf(resultType));
  bool isBool = pointee.isInteger(1);
  Type memoryType = storageType(pointee);

  MemoryHints hints =
      memoryHints(op.getCache(), op.getEvict(), op.getIsVolatile());
  // A scalar load: every thread reads the same address.
  if (!isa<BlockType>(resultType)) {
    Value ptr = getScalar(op.getPtr());
    if (!hints.hint.empty()) { // a hint needs the PTX instruction
      Value pred =
          op.getMask() ? getScalar(op.getMask()) : constBool(loc, true);
      Value other = op.getOther()
                        ? getScalar(op.getOther())
                        : Value(LLVM::ZeroOp::create(builder, loc, pointee));
      if (isBool)
        other = castScalar(loc, other, memoryType, false);
      Value value = loadWords(loc, ptr, pred, other, hints);
      scalars.map(op.getResult(),
                  isBool ? castScalar(loc, value, pointee, false) : value);
      return success();
    }
    auto loadIt = [&]() -> Value {
      Value value = LLVM::LoadOp::create(builder, loc, memoryType, ptr, 0,
                                         hints.isVolatile);
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
      others ? *others : ArrayRef<Value>(), hints);
  return success();
}

LogicalResult KernelEmitter::emitStore(StoreOp op) {
  if (op.getSem())
    return emitAtomicStore(op);
  auto map = dyn_cast_or_null<BlockArgument>(op.getTensorMap());
  if (writesWithTensorMap(op, chip) && map &&
      map.getOwner() == &kernel.getBody().front())
    return emitTensorStore(op);
  Location loc = op.getLoc();
  Type valueType = op.getValue().getType();
  Type pointee = convertElementType(getElementTypeOrSelf(valueType));
  bool isBool = pointee.isInteger(1);
  Type memoryType = storageType(pointee);
  int64_t bytes = elementBytes(memoryType);
  auto toMemory = [&](Value value) {
    return isBool ? castScalar(loc, value, memoryType, false) : value;
  };

  MemoryHints hints =
      memoryHints(op.getCache(), op.getEvict(), op.getIsVolatile());
  if (!isa<BlockType>(valueType)) {
    // A scalar is the same in every thread: one thread writes it, as one
    // copy of a replicated block element is written (256 threads storing
    // one word cost a layer-norm row 16 store transactions instead of 2).
    Value ptr = getScalar(op.getPtr());
    Value value = toMemory(getScalar(op.getValue()));
    Value pred = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       threadId(), constI32(loc, 0));
    if (op.getMask())
      pred = andPredicates(loc, pred, getScalar(op.getMask()));
    if (!hints.hint.empty()) {
      storeWords(loc, value, ptr, pred, hints);
      return success();
    }
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, pred, false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    LLVM::StoreOp::create(builder, loc, value, ptr, 0, hints.isVolatile);
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
    std::optional<Value> writes = writePredicate(loc, layout, first);
    if (!writes)
      continue;
    Value pred = *writes;
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
    if (!pred && !hints.hint.empty()) // a cache hint needs the PTX instruction
      pred = constBool(loc, true);
    if (!pred) {
      LLVM::StoreOp::create(builder, loc, lanes, ptr, totalBytes,
                            hints.isVolatile);
      continue;
    }
    if (totalBytes < 2 && hints.hint.empty()) {
      auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, pred, false);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      LLVM::StoreOp::create(builder, loc, lanes, ptr, 1, hints.isVolatile);
      continue;
    }
    storeWords(loc, lanes, ptr, pred, hints);
  }
  return success();
}

/// Words of up to 4 bytes for `totalBytes` of `width` lanes (8 for a single
/// 8-byte lane; a single byte as one 1-byte word).
static int64_t accessWordBytes(int64_t totalBytes, int64_t width) {
  if (totalBytes == 8 && width == 1)
    return 8;
  return std::min<int64_t>(totalBytes, 4);
}

/// The words a predicated access moves `lanes` in: words of up to 4 bytes
/// (8 for a single 8-byte lane), a single byte widened to a 16-bit word
/// (`ld/st .u8`). Returns them and their width in bits (8 for a byte).
std::pair<SmallVector<Value>, int64_t> KernelEmitter::splitWords(Location loc,
                                                                 Value lanes) {
  auto vector = dyn_cast<VectorType>(lanes.getType());
  Type element = vector ? vector.getElementType() : lanes.getType();
  int64_t width = vector ? vector.getNumElements() : 1;
  int64_t totalBytes = width * elementBytes(element);
  int64_t wordBytes = accessWordBytes(totalBytes, width);
  int64_t words = totalBytes / wordBytes;
  Type wordType = builder.getIntegerType(wordBytes * 8);
  Type wordsType = words == 1 ? wordType : VectorType::get({words}, wordType);
  Value bits = LLVM::BitcastOp::create(builder, loc, wordsType, lanes);
  SmallVector<Value> result;
  for (int64_t word = 0; word < words; ++word)
    result.push_back(words == 1
                         ? bits
                         : Value(LLVM::ExtractElementOp::create(
                               builder, loc, bits, constI32(loc, word))));
  if (wordBytes == 1)
    result[0] =
        arith::ExtUIOp::create(builder, loc, builder.getI16Type(), result[0]);
  return {result, wordBytes * 8};
}

/// The inverse of splitWords: `words` as lanes of `lanesType`.
Value KernelEmitter::joinWords(Location loc, ArrayRef<Value> words,
                               int64_t wordBits, Type lanesType) {
  Type wordType = builder.getIntegerType(wordBits);
  SmallVector<Value> narrow(words);
  if (wordBits == 8)
    narrow[0] = arith::TruncIOp::create(builder, loc, wordType, narrow[0]);
  Value value = narrow[0];
  if (narrow.size() > 1) {
    auto wordsType =
        VectorType::get({static_cast<int64_t>(narrow.size())}, wordType);
    value = LLVM::UndefOp::create(builder, loc, wordsType);
    for (auto [index, word] : llvm::enumerate(narrow))
      value = LLVM::InsertElementOp::create(builder, loc, value, word,
                                            constI32(loc, index));
  }
  return LLVM::BitcastOp::create(builder, loc, lanesType, value);
}

/// One predicated PTX load of the lanes of `other`'s type (up to 16 bytes),
/// which the result holds where `pred` is off.
Value KernelEmitter::loadWords(Location loc, Value ptr, Value pred, Value other,
                               const MemoryHints &hints) {
  auto [otherWords, wordBits] = splitWords(loc, other);
  SmallVector<Value> loaded = createPredicatedLoad(
      builder, loc, ptr, pred, otherWords, wordBits, hints.space());
  return joinWords(loc, loaded, wordBits, other.getType());
}

/// One predicated PTX store of `lanes` (up to 16 bytes).
void KernelEmitter::storeWords(Location loc, Value lanes, Value ptr, Value pred,
                               const MemoryHints &hints) {
  auto [words, wordBits] = splitWords(loc, lanes);
  createPredicatedStore(builder, loc, ptr, pred, words, wordBits,
                        hints.space());
}
