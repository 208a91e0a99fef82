//===- Scan.cpp - inclusive scans along an axis ---------------------------===//
//
// The bits of the axis coordinate are spread over register, lane and warp
// bits by the layout. The scan walks them from the least significant up, in
// runs of bits of one kind. Before a run, each element holds the inclusive
// scan of its block (the elements that agree with it on all higher axis
// bits) and the block's total; the run joins 2^m neighbouring blocks:
//
// - register bits: the blocks are in the same thread, combined in order;
// - lane bits: the totals are scanned across the lanes of the run with
//   shuffles (Kogge-Stone), and each block adds the total of those before it;
// - warp bits: the totals go through shared memory.
//
// A reverse scan runs the same with the order of blocks reversed. Elements
// past the extent of a padded axis come after every real element, so they
// never reach a real one in a forward scan; in a reverse scan they are
// masked to "nothing".
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include <set>

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
/// One axis-coordinate bit: which hardware bit holds it.
struct AxisBit {
  HWDim dim;
  unsigned bit;
};
} // namespace

LogicalResult KernelEmitter::emitScan(ScanOp op) {
  Location loc = op.getLoc();
  auto type = cast<BlockType>(op.getSrc().getType());
  Type element = combinedElementType(op.getSrcs());
  for (Value src : op.getSrcs())
    if (cast<BlockType>(src.getType()).getEncoding() != type.getEncoding())
      return op.emitOpError() << "operands must have one layout";
  CombineKind kind = op.getKind();
  Region &region = op.getCombine();
  unsigned axis = op.getAxis();
  bool reverse = op.getReverse();
  BlockLayout layout = getBlockLayout(type);
  const LinearLayout &linear = layout.linear;

  // The hardware bit of each axis bit, least significant first.
  int64_t axisBits = llvm::Log2_64(linear.getShape()[axis]);
  SmallVector<std::optional<AxisBit>> owner(axisBits);
  for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp})
    for (auto [bit, basis] : llvm::enumerate(linear.getBases(dim))) {
      if (basis[axis] == 0)
        continue;
      bool alongAxis = llvm::isPowerOf2_64(basis[axis]);
      for (unsigned d = 0; d < linear.getRank(); ++d)
        alongAxis = alongAxis && (d == axis || basis[d] == 0);
      unsigned position = llvm::Log2_64(basis[axis]);
      if (!alongAxis || owner[position])
        return op.emitOpError()
               << "operand layout does not give each bit of dimension " << axis
               << " its own register, lane or warp bit; convert it "
               << "first";
      owner[position] = AxisBit{dim, unsigned(bit)};
    }
  for (auto &bit : owner)
    if (!bit)
      return op.emitOpError()
             << "operand layout does not cover dimension " << axis;

  // Elements of this thread: the scan of their block so far and the block's
  // total. Registers that share a block share the total's SSA value.
  SmallVector<Value> values = combinedRegisters(loc, op.getSrcs());
  SmallVector<Accumulator> prefix, total;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    Accumulator start{values[reg], Value()};
    if (reverse)
      if (Value valid = registerValidAlong(layout, reg, axis)) {
        if (kind == CombineKind::custom)
          start.valid = valid;
        else
          start.value = arith::SelectOp::create(
              builder, loc, valid, values[reg],
              identityAccumulator(loc, kind, element).value);
      }
    prefix.push_back(start);
    total.push_back(start);
  }
  auto combineOrdered = [&](Accumulator earlier, Accumulator later) {
    return combine(loc, kind, region, earlier, later);
  };

  for (int64_t first = 0; first < axisBits;) {
    HWDim dim = owner[first]->dim;
    int64_t last = first + 1;
    while (last < axisBits && owner[last]->dim == dim)
      ++last;
    SmallVector<unsigned> bits;
    for (int64_t position = first; position < last; ++position)
      bits.push_back(owner[position]->bit);
    int64_t blocks = int64_t(1) << bits.size();
    auto scatter = [&](int64_t index) {
      int64_t result = 0;
      for (auto [i, bit] : llvm::enumerate(bits))
        if (index & (int64_t(1) << i))
          result |= int64_t(1) << bit;
      return result;
    };

    if (dim == HWDim::Register) {
      int64_t runMask = scatter(blocks - 1);
      for (int64_t base = 0; base < layout.numRegisters(); ++base) {
        if (base & runMask)
          continue;
        std::optional<Accumulator> before;
        for (int64_t step = 0; step < blocks; ++step) {
          int64_t reg = base | scatter(reverse ? blocks - 1 - step : step);
          Accumulator blockTotal = total[reg];
          if (before)
            prefix[reg] = combineOrdered(*before, prefix[reg]);
          before = before ? combineOrdered(*before, blockTotal) : blockTotal;
        }
        for (int64_t step = 0; step < blocks; ++step)
          total[base | scatter(step)] = *before;
      }
    } else if (dim == HWDim::Lane) {
      // The run's value v of this lane, and the lane holding another value.
      Value v = gatherThreadBits(loc, bits);
      int64_t laneRunMask = scatter(blocks - 1);
      Value otherLanes = arith::AndIOp::create(builder, loc, laneId(),
                                               constI32(loc, ~laneRunMask));
      auto laneWith = [&](Value index) -> Value {
        Value spread;
        for (auto [i, bit] : llvm::enumerate(bits)) {
          Value isSet = arith::AndIOp::create(
              builder, loc,
              arith::ShRUIOp::create(builder, loc, index, constI32(loc, i)),
              constI32(loc, 1));
          Value placed =
              arith::ShLIOp::create(builder, loc, isSet, constI32(loc, bit));
          spread =
              spread ? Value(arith::OrIOp::create(builder, loc, spread, placed))
                     : placed;
        }
        return arith::OrIOp::create(builder, loc, otherLanes, spread);
      };
      auto step = [&](int64_t delta) -> Value {
        return reverse ? Value(arith::AddIOp::create(builder, loc, v,
                                                     constI32(loc, delta)))
                       : Value(arith::SubIOp::create(builder, loc, v,
                                                     constI32(loc, delta)));
      };
      auto hasBlock = [&](int64_t delta) -> Value {
        // Forward: v >= delta; reverse: v + delta < blocks.
        return reverse ? arith::CmpIOp::create(builder, loc,
                                               arith::CmpIPredicate::ult, v,
                                               constI32(loc, blocks - delta))
                       : arith::CmpIOp::create(builder, loc,
                                               arith::CmpIPredicate::uge, v,
                                               constI32(loc, delta));
      };
      std::map<const void *, std::pair<Accumulator, Accumulator>> done;
      for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
        const void *key = total[reg].value.getAsOpaquePointer();
        auto it = done.find(key);
        if (it == done.end()) {
          // Inclusive scan of the totals over the run (Kogge-Stone).
          Accumulator inclusive = total[reg];
          for (int64_t delta = 1; delta < blocks; delta *= 2) {
            Accumulator other = shuffleAccumulator(
                loc, inclusive, laneWith(step(delta)), gpu::ShuffleMode::IDX);
            inclusive =
                selectAccumulator(loc, hasBlock(delta),
                                  combineOrdered(other, inclusive), inclusive);
          }
          Accumulator exclusive = shuffleAccumulator(
              loc, inclusive, laneWith(step(1)), gpu::ShuffleMode::IDX);
          Accumulator runTotal = shuffleAccumulator(
              loc, inclusive, laneWith(constI32(loc, reverse ? 0 : blocks - 1)),
              gpu::ShuffleMode::IDX);
          it = done.try_emplace(key, exclusive, runTotal).first;
        }
        auto [exclusive, runTotal] = it->second;
        prefix[reg] = selectAccumulator(loc, hasBlock(1),
                                        combineOrdered(exclusive, prefix[reg]),
                                        prefix[reg]);
        total[reg] = runTotal;
      }
    } else {
      // Warps: each block's total goes to shared memory at (the other
      // coordinates, the axis coordinate >> first); each element combines
      // the totals of the blocks before its own in the run.
      SmallVector<int64_t> slotShape(linear.getShape());
      slotShape[axis] >>= first;
      int64_t slots = 1, inner = 1;
      for (auto [d, extent] : llvm::enumerate(slotShape)) {
        slots *= extent;
        if (d > axis)
          inner *= extent;
      }
      int64_t storageBytes = elementBytes(storageType(element));
      int64_t flagsOffset = (slots * storageBytes + 15) / 16 * 16;
      bool flagged = llvm::any_of(
          total, [](const Accumulator &acc) { return bool(acc.valid); });
      reserveShared(flagged ? flagsOffset + slots * 4 : slots * storageBytes);
      SmallVector<unsigned> tidBits;
      for (unsigned bit : bits)
        tidBits.push_back(5 + bit);
      Value v = gatherThreadBits(loc, tidBits);
      Value zero = constI32(loc, 0), flags = constI32(loc, flagsOffset);
      // The slot of block 0 of each register's run.
      SmallVector<Value> runBase;
      for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
        SmallVector<Value> coords = registerCoords(layout, reg);
        coords[axis] = arith::ShRUIOp::create(builder, loc, coords[axis],
                                              constI32(loc, first));
        Value slot = linearIndex(loc, slotShape, coords);
        runBase.push_back(arith::SubIOp::create(
            builder, loc, slot,
            arith::MulIOp::create(builder, loc, v, constI32(loc, inner))));
      }
      barrier(loc);
      std::set<const void *> written;
      for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
        if (!written.insert(total[reg].value.getAsOpaquePointer()).second)
          continue;
        Value slot = arith::AddIOp::create(
            builder, loc, runBase[reg],
            arith::MulIOp::create(builder, loc, v, constI32(loc, inner)));
        storeShared(loc, zero, slot, total[reg].value);
        if (flagged)
          storeShared(loc, flags, slot,
                      total[reg].valid
                          ? Value(arith::ExtUIOp::create(
                                builder, loc, i32Type(), total[reg].valid))
                          : constI32(loc, 1));
      }
      barrier(loc);
      std::map<const void *, std::pair<Accumulator, Accumulator>> done;
      for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
        const void *key = runBase[reg].getAsOpaquePointer();
        auto it = done.find(key);
        if (it == done.end()) {
          // Blocks before this one (by v) and the run's total.
          Accumulator before{identityAccumulator(loc, kind, element).value,
                             constBool(loc, false)};
          std::optional<Accumulator> all;
          for (int64_t step = 0; step < blocks; ++step) {
            int64_t block = reverse ? blocks - 1 - step : step;
            Value slot = arith::AddIOp::create(builder, loc, runBase[reg],
                                               constI32(loc, block * inner));
            Accumulator part{loadShared(loc, zero, slot, element), Value()};
            if (flagged)
              part.valid =
                  castScalar(loc, loadShared(loc, flags, slot, i32Type()),
                             builder.getI1Type(), false);
            // `block` comes before this thread's block: v > block (forward).
            Value isBefore =
                reverse ? arith::CmpIOp::create(builder, loc,
                                                arith::CmpIPredicate::ult, v,
                                                constI32(loc, block))
                        : arith::CmpIOp::create(builder, loc,
                                                arith::CmpIPredicate::ugt, v,
                                                constI32(loc, block));
            before = selectAccumulator(loc, isBefore,
                                       combineOrdered(before, part), before);
            all = all ? combineOrdered(*all, part) : part;
          }
          it = done.try_emplace(key, before, *all).first;
        }
        auto [before, runTotal] = it->second;
        // `before` holds nothing for the first block: the prefix stays.
        Accumulator combined = combineOrdered(before, prefix[reg]);
        if (!prefix[reg].valid)
          combined.valid = Value();
        prefix[reg] = combined;
        total[reg] = runTotal;
      }
    }
    first = last;
  }

  unsigned count = op.getSrcs().size();
  SmallVector<SmallVector<Value>> fields(count);
  for (const Accumulator &acc : prefix)
    for (auto [i, value] :
         llvm::enumerate(splitCombined(loc, acc.value, count)))
      fields[i].push_back(value);
  for (auto [result, values] : llvm::zip(op.getResults(), fields))
    registers[result] = std::move(values);
  return success();
}
