//===- ResourceLimits.cpp - limits diagnosed before emission --------------===//
//
// See docs/reliability.md: 1 to 1024 threads, and no block value with more
// elements per thread than a thread has registers. The lowering keeps one
// scalar per element per thread: 2^20 f32 at 4 warps (8192 per thread) took
// ptxas 32 s and 2 GB, and spilled to local memory; with a limit of 1024, a
// fuzzed wgmma kernel of 128x128 blocks took over 25 s under ASan. Shared
// memory is checked after emission, when its size is known (TileToGPU.cpp).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// Where to report a problem with `op`: its own location if it names a
/// file, or, for a constant that canonicalization hoisted (which drops the
/// location), the
/// first user with one in program order (`tile-cc -DSIZE=16777216` said
/// `<unknown>:0:`), else the kernel (a constant only ops the passes made
/// use, as a pipelined loop's masked copies). Not the first in its use
/// list: that order changes from run to run.
static bool hasFileLocation(Location loc) {
  WalkResult found = loc->walk([](Location inner) {
    return isa<FileLineColLoc>(inner) ? WalkResult::interrupt()
                                      : WalkResult::advance();
  });
  return found.wasInterrupted();
}

static Location userFacingLoc(Operation *op) {
  if (hasFileLocation(op->getLoc()))
    return op->getLoc();
  std::optional<Location> found;
  auto func = op->getParentOfType<func::FuncOp>();
  if (func)
    func.walk<WalkOrder::PreOrder>([&](Operation *candidate) {
      bool uses = llvm::any_of(candidate->getOperands(), [&](Value operand) {
        return operand.getDefiningOp() == op;
      });
      if (!uses || !hasFileLocation(candidate->getLoc()))
        return WalkResult::advance();
      found = candidate->getLoc();
      return WalkResult::interrupt();
    });
  if (!found && func)
    found = func.getLoc();
  return found.value_or(op->getLoc());
}

LogicalResult mlir::tile::lowering::checkResourceLimits(func::FuncOp kernel,
                                                        int64_t numWarps) {
  constexpr int64_t kMaxThreads = 1024, kMaxElementsPerThread = 255;
  if (numWarps < 1 || numWarps * kWarpSize > kMaxThreads ||
      !llvm::isPowerOf2_64(numWarps))
    return kernel.emitError()
           << "kernel '" << kernel.getName() << "' has " << kNumWarpsAttrName
           << " = " << numWarps << ": a block has 1 to " << kMaxThreads
           << " threads, so a power of two from 1 to "
           << kMaxThreads / kWarpSize << " warps";
  int64_t numThreads = numWarps * kWarpSize;
  auto check = [&](Value value, Operation *at) -> LogicalResult {
    auto block = dyn_cast<BlockType>(value.getType());
    if (!block)
      return success();
    auto layout =
        dyn_cast_or_null<DistributedLayoutAttrInterface>(block.getEncoding());
    if (!layout)
      return at->emitError() << "block " << block
                             << " has no layout; run tile-assign-layouts first";
    if (layout.getNumWarps() != numWarps)
      return at->emitError() << "block " << block << " is laid out over "
                             << layout.getNumWarps() << " warps, but kernel '"
                             << kernel.getName() << "' has " << numWarps;
    // Types built inside passes are not verified as parsed ones are; a
    // layout that does not fit its block would lower to wrong indices.
    if (failed(verifyLayoutForShape(
            [&] {
              return at->emitOpError()
                     << "internal error: a layout pass gave " << block << ": ";
            },
            layout, block.getShape())))
      return failure();
    int64_t perThread = getLinearLayout(block).getNumRegisters();
    if (perThread <= kMaxElementsPerThread)
      return success();
    return emitError(userFacingLoc(at))
           << "block of " << block.getNumElements() << " elements needs "
           << perThread << " registers per thread at " << numThreads
           << " threads, more than " << kMaxElementsPerThread
           << "; use smaller blocks or more warps";
  };
  WalkResult result = kernel.walk([&](Operation *op) {
    for (Value value : op->getResults())
      if (failed(check(value, op)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(check(arg, op)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::tile::lowering::checkChipSupport(func::FuncOp kernel,
                                                     StringRef chip) {
  unsigned version = getChipVersion(chip);
  WalkResult result = kernel.walk([&](Operation *op) {
    auto atomic = dyn_cast<AtomicRMWOp>(op);
    if (atomic && atomic.getKind() == AtomicKind::add && version < 90 &&
        getElementTypeOrSelf(atomic.getResult().getType()).isBF16()) {
      op->emitOpError() << "adds bf16, which needs sm_90 or later (PTX "
                           "atom.add.noftz.bf16); the chip is "
                        << chip;
      return WalkResult::interrupt();
    }
    if (version >= 89 || !isa<CastOp, DotOp>(op))
      return WalkResult::advance();
    // A dot below sm_89 runs on FMA, which widens 8-bit floats to f16.
    Type from = getElementTypeOrSelf(op->getOperand(0).getType());
    Type to = getElementTypeOrSelf(op->getOperand(isa<DotOp>(op)).getType());
    if (!isa<DotOp>(op))
      to = getElementTypeOrSelf(op->getResult(0).getType());
    if (!isFloat8Type(from) && !isFloat8Type(to))
      return WalkResult::advance();
    InFlightDiagnostic diagnostic = emitError(userFacingLoc(op));
    if (isa<DotOp>(op))
      diagnostic << "multiplies " << from << " by " << to
                 << " (widened to f16)";
    else
      diagnostic << "converts " << from << " to " << to;
    diagnostic << ": 8-bit float conversions need sm_89 or later (PTX cvt "
                  "with e4m3x2/e5m2x2); the chip is "
               << chip;
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
