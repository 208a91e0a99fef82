//===- AsyncCopy.cpp - copies into shared-memory rings --------------------===//
//
// `tile.async_copy` writes a block from global memory into a ring slot in
// the form wgmma reads (StagedMatrix) with `cp.async`, so the data never
// passes through registers: each thread copies the runs of its pointer
// registers that are contiguous in the slot, 4 to 16 bytes each. A ring
// whose copies read runs along the block's rows (a K-major B, an M-major A)
// stores its slots transposed, so those runs stay whole; a run too short
// for cp.async (one 2-byte element) is loaded into registers and stored
// (all of a copy's reads first, so that their latencies overlap), which the
// same wait and barrier order before the dot.
//
// A rank-1 ring holds row statistics (attention backward's m and Di): each
// slot one contiguous row, copied with cp.async of 4 to 16 bytes and read
// back into any layout by `tile.ring_load`.
//
// Copies that name a box of a tensor map (a host tensor descriptor's) are
// TMA copies instead: thread 0 issues `cp.async.bulk.tensor` for the slot,
// which completes on the slot's barrier (`mbarrier`, one phase per copy),
// and `tile.ring_wait` waits for the phase.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"
#include "tile/Analysis/AccessWidth.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

int64_t KernelEmitter::copyWidth(AsyncCopyOp op) {
  BlockLayout layout = getBlockLayout(cast<BlockType>(op.getPtr().getType()));
  int64_t bytes = elementBytes(
      convertElementType(op.getRing().getType().getBlock().getElementType()));
  // Registers first, first + 1, ... are adjacent in the slot only when the
  // layout's run is along the slot's contiguous dimension; the addresses
  // must allow the width too.
  LinearLayout::Run run = layout.linear.getContiguousRun();
  bool statistics = op.getRing().getType().getBlock().getRank() == 1;
  int64_t width =
      statistics || run.dim == ringSlot(op.getRing()).contiguousDim()
          ? accessWidth(op.getPtr(), op.getMask(), layout)
          : int64_t(1);
  return std::min<int64_t>(width, 16 / bytes);
}

bool KernelEmitter::storesFromRegisters(AsyncCopyOp op) {
  int64_t bytes = elementBytes(
      convertElementType(op.getRing().getType().getBlock().getElementType()));
  return copiesThroughRegisters(copyWidth(op), bytes);
}

StagedMatrix KernelEmitter::ringSlot(Value ring) const {
  BlockType block = cast<RingType>(ring.getType()).getBlock();
  // A row of statistics is a matrix of one row.
  if (block.getRank() == 1)
    return StagedMatrix::get(1, block.getShape()[0],
                             elementBytes(block.getElementType()));
  return StagedMatrix::get(block.getShape()[0], block.getShape()[1],
                           elementBytes(block.getElementType()),
                           ringTransposed.lookup(ring));
}

Value KernelEmitter::slotElementOffset(Location loc, Value ring,
                                       ArrayRef<Value> coords) {
  StagedMatrix slot = ringSlot(ring);
  if (coords.size() == 2)
    return slot.physicalOffset(builder, loc, coords[0], coords[1]);
  // Statistics: unswizzled (every copy and read is of 16 bytes or less).
  return arith::MulIOp::create(builder, loc, coords[0],
                               constI32(loc, slot.elementBytes));
}

SmallVector<Value> KernelEmitter::slotRegisterOffsets(Location loc, Value ring,
                                                      Value slot,
                                                      const BlockLayout &layout,
                                                      int64_t width) {
  StagedMatrix matrix = ringSlot(ring);
  bool row = cast<RingType>(ring.getType()).getBlock().getRank() == 1;
  SmallVector<Value> offsets = registerOffsets(
      loc, layout, width,
      [&](const LinearLayout::Coord &coord) {
        return row ? coord[0] * matrix.elementBytes
                   : matrix.physicalOffset(coord[0], coord[1]);
      },
      [&](int64_t reg) {
        return slotElementOffset(loc, ring, registerCoords(layout, reg));
      });
  Value start = slotOffset(loc, ring, slot);
  for (Value &offset : offsets)
    offset = arith::AddIOp::create(builder, loc, start, offset);
  return offsets;
}

void KernelEmitter::placeRings() {
  ringOffsets.clear();
  ringTransposed.clear();
  ringsStoredFromRegisters.clear();
  ringLiveOps.clear();
  ringReuseStarts.clear();
  ringBarriers.clear();
  pointerCopies = false;
  barrierCount = 0;
  ringBytes = 0;
  Block &body = kernel.getBody().front();
  // A placed ring: its bytes and its live range (top-level ops of the body).
  struct Placed {
    int64_t begin, end;
    Operation *first, *last;
  };
  SmallVector<Placed> placed;
  // In the order their live ranges start: a ring whose bytes an earlier one
  // used waits for that one's readers where it starts (ringReuseStarts),
  // whatever order the allocations are in.
  SmallVector<RingAllocOp> allocs;
  kernel.walk([&](RingAllocOp alloc) { allocs.push_back(alloc); });
  auto start = [&](RingAllocOp alloc) -> Operation * {
    Operation *first = nullptr;
    for (Operation *user : alloc->getUsers()) {
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!first || top->isBeforeInBlock(first))
        first = top;
    }
    return first;
  };
  llvm::stable_sort(allocs, [&](RingAllocOp a, RingAllocOp b) {
    Operation *x = start(a), *y = start(b);
    return x && (!y || x->isBeforeInBlock(y));
  });
  for (RingAllocOp alloc : allocs) {
    // Every copy into a ring reads the same pattern of addresses (the
    // prologue's and the loop's loads of one operand): the first says
    // which way the slots run. TMA copies store the tensor's contiguous
    // dimension contiguously.
    // Stores from registers (tile.ring_store) follow the same rule.
    for (Operation *user : alloc->getUsers()) {
      auto copy = dyn_cast<AsyncCopyOp>(user);
      auto store = dyn_cast<RingStoreOp>(user);
      if (!copy && !store)
        continue;
      LinearLayout::Run run =
          getBlockLayout(cast<BlockType>(copy ? copy.getPtr().getType()
                                              : store.getValue().getType()))
              .linear.getContiguousRun();
      ringTransposed[alloc.getRing()] =
          copy && copy.getTensorMap()
              ? copy.getMapDimsOrIdentity()[0] == 1
              : run.dim == 0 && run.length > 1 &&
                    alloc.getType().getBlock().getRank() == 2;
      break;
    }
    if (copiesWithTensorMap(alloc.getRing())) {
      ringBarriers[alloc.getRing()] = barrierCount;
      barrierCount += alloc.getType().getSlots();
    } else {
      pointerCopies = true;
      // Runs too short for cp.async are stored from registers: through the
      // generic proxy, which wgmma's reads need a proxy fence after.
      for (Operation *user : alloc->getUsers())
        if (auto copy = dyn_cast<AsyncCopyOp>(user);
            isa<RingStoreOp>(user) || (copy && storesFromRegisters(copy)))
          ringsStoredFromRegisters.insert(alloc.getRing());
    }
    StagedMatrix slot = ringSlot(alloc.getRing());
    int64_t size = alloc.getType().getSlots() * slot.alignedBytes();
    // The ring's live range: the body's ops from the first to the last that
    // holds a use (copies, dots; the loop around them).
    Operation *first = nullptr, *last = nullptr;
    for (Operation *user : alloc->getUsers()) {
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!first || top->isBeforeInBlock(first))
        first = top;
      if (!last || last->isBeforeInBlock(top))
        last = top;
    }
    if (!first) {
      ringOffsets[alloc.getRing()] = 0;
      continue;
    }
    // The lowest offset clear of every ring live at the same time; rings of
    // loops one after another (causal attention's two stages) share bytes.
    auto liveTogether = [&](const Placed &other) {
      return !other.last->isBeforeInBlock(first) &&
             !last->isBeforeInBlock(other.first);
    };
    int64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Placed &other : placed)
        if (liveTogether(other) && offset < other.end &&
            other.begin < offset + size) {
          offset = other.end;
          moved = true;
        }
    }
    // Bytes an earlier ring used: its dots and copies must be done, in every
    // thread, before this ring's first copy lands there.
    for (const Placed &other : placed)
      if (!liveTogether(other) && offset < other.end &&
          other.begin < offset + size)
        ringReuseStarts.insert(first);
    placed.push_back({offset, offset + size, first, last});
    ringOffsets[alloc.getRing()] = offset;
    ringBytes = std::max(ringBytes, offset + size);
    for (Operation *op = first; op != last->getNextNode();
         op = op->getNextNode())
      ringLiveOps.insert(op);
  }
}

Value KernelEmitter::slotOffset(Location loc, Value ring, Value slot) {
  return arith::AddIOp::create(
      builder, loc, constI32(loc, ringOffsets.lookup(ring)),
      arith::MulIOp::create(builder, loc, getScalar(slot),
                            constI32(loc, ringSlot(ring).alignedBytes())));
}

Value KernelEmitter::slotAddress(Location loc, Value ring, Value slot) {
  return arith::AddIOp::create(builder, loc,
                               LLVM::PtrToIntOp::create(builder, loc,
                                                        builder.getI32Type(),
                                                        ringBase(loc)),
                               slotOffset(loc, ring, slot));
}

bool KernelEmitter::copiesWithTensorMap(Value ring) {
  // The same box from every copy, of a kernel parameter's map, in a ring
  // whose slots TMA boxes can fill.
  BlockType block = cast<RingType>(ring.getType()).getBlock();
  std::optional<SmallVector<int64_t>> dims;
  for (Operation *user : ring.getUsers()) {
    auto copy = dyn_cast<AsyncCopyOp>(user);
    if (!copy)
      continue;
    auto arg = dyn_cast_or_null<BlockArgument>(copy.getTensorMap());
    if (!arg || arg.getOwner() != &kernel.getBody().front())
      return false;
    SmallVector<int64_t> copyDims = copy.getMapDimsOrIdentity();
    if (dims && *dims != copyDims)
      return false;
    dims = copyDims;
  }
  return dims && fitsTensorMapBox(block, *dims);
}

Value KernelEmitter::slotBarrier(Location loc, Value ring, Value slot) {
  Value index = arith::AddIOp::create(
      builder, loc, constI32(loc, ringBarriers.lookup(ring)), slot);
  return arith::AddIOp::create(
      builder, loc, barrierBase,
      arith::MulIOp::create(builder, loc, index, constI32(loc, 8)));
}

LogicalResult KernelEmitter::emitTensorCopy(AsyncCopyOp op) {
  Location loc = op.getLoc();
  StagedMatrix matrix = ringSlot(op.getRing());
  if (failed(noteTensorMapBox(
          op, cast<BlockArgument>(op.getTensorMap()).getArgNumber(), matrix)))
    return failure();
  // The map's coordinates, innermost first: the stored column, then row.
  Value row = getScalar(op.getMapCoords()[0]);
  Value column = getScalar(op.getMapCoords()[1]);
  Value tensorMap = getScalar(op.getTensorMap());
  Value slot = getScalar(op.getSlot());
  Value slotStart = slotAddress(loc, op.getRing(), op.getSlot());
  Value isFirst = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        tid, constI32(loc, 0));
  auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, isFirst, false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value barrierAddress = slotBarrier(loc, op.getRing(), slot);
  createArriveExpectBytes(builder, loc, barrierAddress, matrix.bytes());
  int64_t perRow = matrix.elementsPerRow();
  for (int64_t block = 0; block * perRow < matrix.storedCols(); ++block) {
    Value blockColumn = arith::AddIOp::create(builder, loc, column,
                                              constI32(loc, block * perRow));
    Value destination = arith::AddIOp::create(
        builder, loc, slotStart, constI32(loc, block * matrix.leadingBytes()));
    createTensorCopy(builder, loc, destination, tensorMap, {blockColumn, row},
                     barrierAddress);
  }
  return success();
}

LogicalResult KernelEmitter::noteTensorMapBox(Operation *op, unsigned arg,
                                              const StagedMatrix &matrix) {
  // The box is one column block of the matrix: its stored rows, and as many
  // elements of a row as one swizzle row holds (TMA's limit for swizzled
  // boxes); wider rows take one copy per column block.
  TensorMapBox box{{matrix.storedRows(), matrix.elementsPerRow()},
                   matrix.swizzleBytes,
                   matrix.elementBytes};
  auto [known, inserted] = tensorMapBoxes.try_emplace(arg, box);
  if (!inserted && !(known->second == box))
    return op->emitError() << "tensor map parameter " << arg
                           << " is read or written in boxes of two shapes; "
                              "TMA needs one box per map";
  return success();
}

/// Whether `op` may read global memory: loads, atomics, copies, the user's
/// inline asm.
static bool readsGlobalMemory(Operation *op) {
  return isa<LoadOp, AtomicRMWOp, AtomicCASOp, AsyncCopyOp, InlineAsmOp>(op);
}

bool KernelEmitter::readsGlobalMemoryAfter(Operation *op) {
  auto readsIn = [](Operation *root) {
    return root
        ->walk([](Operation *nested) {
          return readsGlobalMemory(nested) ? WalkResult::interrupt()
                                           : WalkResult::advance();
        })
        .wasInterrupted();
  };
  for (Operation *at = op; at && at != kernel.getOperation();
       at = at->getParentOp()) {
    for (Operation *next = at->getNextNode(); next; next = next->getNextNode())
      if (readsIn(next))
        return true;
    // In a loop, the next iteration runs what came before too.
    if (auto loop = dyn_cast<LoopLikeOpInterface>(at->getParentOp()))
      if (readsIn(loop.getOperation()))
        return true;
  }
  return false;
}

LogicalResult KernelEmitter::emitTensorStore(StoreOp op) {
  Location loc = op.getLoc();
  auto block = cast<BlockType>(op.getValue().getType());
  StagedMatrix matrix = StagedMatrix::get(
      block.getShape()[0], block.getShape()[1],
      elementBytes(storageType(convertElementType(block.getElementType()))),
      /*transposed=*/op.getMapDimsOrIdentity()[0] == 1);
  if (failed(noteTensorMapBox(
          op, cast<BlockArgument>(op.getTensorMap()).getArgNumber(), matrix)))
    return failure();
  // Every thread writes its registers where the box's rows are (the same
  // swizzled form the rings have: a warp's 16-byte chunks spread over the
  // banks), then hands them to the async proxy TMA reads through.
  reserveShared(matrix.alignedBytes());
  barrier(loc);
  stageOperand(op.getValue(), matrix, 0);
  createSideEffectAsm(builder, loc, "fence.proxy.async.shared::cta;");
  gpu::BarrierOp::create(builder, loc);
  Value row = getScalar(op.getMapCoords()[0]);
  Value column = getScalar(op.getMapCoords()[1]);
  Value tensorMap = getScalar(op.getTensorMap());
  Value start = LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(),
                                         sharedBase(loc));
  Value isFirst = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        tid, constI32(loc, 0));
  auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, isFirst, false);
  // The writes to global memory complete on their own, unless the kernel
  // may read memory after the store: then thread 0 waits for them and
  // hands them to the generic proxy, and a barrier orders them before
  // every thread's reads.
  bool readAfter = readsGlobalMemoryAfter(op);
  if (readAfter) {
    OpBuilder::InsertionGuard afterGuard(builder);
    builder.setInsertionPointAfter(ifOp);
    gpu::BarrierOp::create(builder, loc);
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
  int64_t perRow = matrix.elementsPerRow();
  for (int64_t column0 = 0; column0 < matrix.storedCols(); column0 += perRow) {
    Value source = arith::AddIOp::create(
        builder, loc, start,
        constI32(loc, column0 / perRow * matrix.leadingBytes()));
    createTensorStore(
        builder, loc, tensorMap,
        {arith::AddIOp::create(builder, loc, column, constI32(loc, column0)),
         row},
        source);
  }
  // The scratch space is free again once TMA has read it (the next use's
  // barrier follows this thread's wait).
  createSideEffectAsm(builder, loc, "cp.async.bulk.commit_group;");
  if (!readAfter) {
    createSideEffectAsm(builder, loc, "cp.async.bulk.wait_group.read 0;");
    return success();
  }
  createSideEffectAsm(builder, loc, "cp.async.bulk.wait_group 0;");
  createSideEffectAsm(builder, loc, "fence.proxy.async.global;");
  return success();
}

LogicalResult KernelEmitter::emitRingWait(RingWaitOp op) {
  Location loc = op.getLoc();
  if (!ringBarriers.count(op.getRing()))
    return success(); // its copies are cp.async ones, in waited groups
  createBarrierWait(builder, loc,
                    slotBarrier(loc, op.getRing(), getScalar(op.getSlot())),
                    getScalar(op.getPhase()));
  return success();
}

ArrayAttr KernelEmitter::getTensorMapFacts() {
  SmallVector<Attribute> facts;
  for (auto &[arg, box] : tensorMapBoxes)
    facts.push_back(builder.getDictionaryAttr(
        {builder.getNamedAttr("arg", builder.getI32IntegerAttr(arg)),
         builder.getNamedAttr("box", builder.getDenseI64ArrayAttr(box.box)),
         builder.getNamedAttr("swizzle",
                              builder.getI32IntegerAttr(box.swizzle)),
         builder.getNamedAttr("element_bytes",
                              builder.getI32IntegerAttr(box.elementBytes))}));
  return builder.getArrayAttr(facts);
}

void KernelEmitter::beforeSlotWrite(Location loc) {
  // The slot this copy fills was read by the previous iteration's groups:
  // each warp has waited for them (or waits now), and the barrier tells
  // every warp so.
  if (!copiesNeedBarrier)
    return;
  if (llvm::any_of(asyncMmaResults,
                   [](Value value) { return isa<BlockArgument>(value); }))
    waitForAsyncMma(loc);
  gpu::BarrierOp::create(builder, loc);
  copiesNeedBarrier = false;
}

void KernelEmitter::storeToSlots(Location loc, ArrayRef<SlotStore> stores) {
  // Rings start at ringBase (storeShared addresses the scratch space).
  auto sharedPtr = LLVM::LLVMPointerType::get(builder.getContext(), 3);
  for (const SlotStore &store : stores) {
    OpBuilder::InsertionGuard guard(builder);
    if (store.pred) {
      auto ifOp =
          scf::IfOp::create(builder, loc, TypeRange{}, store.pred, false);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    Value address =
        LLVM::GEPOp::create(builder, loc, sharedPtr, builder.getI8Type(),
                            ringBase(loc), ValueRange{store.offset});
    LLVM::StoreOp::create(builder, loc, store.value, address);
  }
}

LogicalResult KernelEmitter::emitRingStore(RingStoreOp op) {
  Location loc = op.getLoc();
  beforeSlotWrite(loc);
  BlockLayout layout = getBlockLayout(cast<BlockType>(op.getValue().getType()));
  SmallVector<Value> values = getRegisters(op.getValue());
  SmallVector<Value> offsets =
      slotRegisterOffsets(loc, op.getRing(), op.getSlot(), layout, 1);
  SmallVector<SlotStore> stores;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    // One copy of a replicated element, and none of the padding.
    if (std::optional<Value> writes = writePredicate(loc, layout, reg))
      stores.push_back({values[reg], offsets[reg], *writes});
  }
  storeToSlots(loc, stores);
  return success();
}

LogicalResult KernelEmitter::emitAsyncCopy(AsyncCopyOp op) {
  Location loc = op.getLoc();
  beforeSlotWrite(loc);
  if (ringBarriers.count(op.getRing()))
    return emitTensorCopy(op);
  // 8-bit floats are copied as their bits.
  Type element =
      convertElementType(op.getRing().getType().getBlock().getElementType());
  int64_t bytes = elementBytes(element);
  BlockLayout layout = getBlockLayout(cast<BlockType>(op.getPtr().getType()));
  SmallVector<Value> ptrs = getRegisters(op.getPtr());
  SmallVector<Value> masks;
  if (op.getMask())
    masks = getRegisters(op.getMask());
  int64_t width = copyWidth(op);
  bool async = !storesFromRegisters(op);

  SmallVector<Value> offsets =
      slotRegisterOffsets(loc, op.getRing(), op.getSlot(), layout, width);
  Value ringStart = LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(),
                                             ringBase(loc));
  // Elements stored from registers: every read is issued before the first
  // store, so their latencies overlap (a store after each read waits for
  // it, and the assembler does not move reads across the branches of
  // masked ones).
  SmallVector<SlotStore> stored;
  for (int64_t first = 0; first < layout.numRegisters(); first += width) {
    // One copy of a replicated element, and none of the padding.
    std::optional<Value> writes = writePredicate(loc, layout, first);
    if (!writes)
      continue;
    Value pred = *writes;
    Value valid = masks.empty() ? Value() : masks[first];
    Value offset = offsets[first / width];
    if (async) {
      Value sourceBytes = constI32(loc, width * bytes);
      if (valid)
        sourceBytes = arith::SelectOp::create(builder, loc, valid, sourceBytes,
                                              constI32(loc, 0));
      createAsyncCopy(builder, loc,
                      arith::AddIOp::create(builder, loc, ringStart, offset),
                      ptrs[first], pred ? pred : constBool(loc, true),
                      sourceBytes, width * bytes);
      continue;
    }
    // One element: read only where the mask holds (a masked-off address may
    // lie outside any allocation: the loop pipeliner masks off the copies of
    // iterations past the end), else zero.
    Value read = andPredicates(loc, pred, valid);
    Value value =
        read ? loadWords(loc, ptrs[first], read,
                         arith::ConstantOp::create(
                             builder, loc, builder.getZeroAttr(element)),
                         MemoryHints{})
             : LLVM::LoadOp::create(builder, loc, element, ptrs[first])
                   .getResult();
    stored.push_back({value, offset, pred});
  }
  storeToSlots(loc, stored);
  return success();
}

LogicalResult KernelEmitter::emitRingLoad(RingLoadOp op) {
  Location loc = op.getLoc();
  auto type = cast<BlockType>(op.getType());
  BlockLayout layout = getBlockLayout(type);
  Type element = convertElementType(type.getElementType());
  int64_t bytes = elementBytes(element);
  // Runs of registers that are adjacent in the row, read as one vector of
  // up to 16 bytes (a run of a power-of-two length starts aligned to it).
  LinearLayout::Run run = layout.linear.getContiguousRun();
  int64_t width = std::min<int64_t>(run.length, 16 / bytes);
  Value offset = slotOffset(loc, op.getRing(), op.getSlot());
  SmallVector<Value> starts =
      slotRegisterOffsets(loc, op.getRing(), op.getSlot(), layout, width);
  SmallVector<Value> values;
  for (int64_t first = 0; first < layout.numRegisters(); first += width) {
    Value start = starts[first / width];
    // Padding registers (past the row) read the slot's first element.
    if (Value valid = registerValid(layout, first))
      start = arith::SelectOp::create(builder, loc, valid, start, offset);
    auto sharedPtr = LLVM::LLVMPointerType::get(builder.getContext(), 3);
    Value address =
        LLVM::GEPOp::create(builder, loc, sharedPtr, builder.getI8Type(),
                            ringBase(loc), ValueRange{start});
    if (width == 1) {
      values.push_back(LLVM::LoadOp::create(builder, loc, element, address));
      continue;
    }
    Value vector =
        LLVM::LoadOp::create(builder, loc, VectorType::get({width}, element),
                             address, width * bytes);
    for (int64_t i = 0; i < width; ++i)
      values.push_back(LLVM::ExtractElementOp::create(builder, loc, vector,
                                                      constI32(loc, i)));
  }
  registers[op.getResult()] = std::move(values);
  return success();
}
