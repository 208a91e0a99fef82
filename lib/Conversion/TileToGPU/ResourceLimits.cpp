//===- ResourceLimits.cpp - limits diagnosed before emission --------------===//
//
// See docs/reliability.md: 1 to 1024 threads, and no block value with more
// elements per thread than a thread has registers. The lowering keeps one
// scalar per element per thread: 2^20 f32 at 4 warps (8192 per thread) took
// ptxas 32 s and 2 GB, and spilled to local memory. Shared memory is checked
// after emission, when its size is known (TileToGPU.cpp).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult mlir::tile::lowering::checkResourceLimits(func::FuncOp kernel,
                                                        int64_t numWarps) {
  constexpr int64_t kMaxThreads = 1024, kMaxRegisters = 255;
  if (numWarps < 1 || numWarps * kWarpSize > kMaxThreads)
    return kernel.emitError()
           << "kernel '" << kernel.getName()
           << "' has tile.num_warps = " << numWarps << ": a block has 1 to "
           << kMaxThreads << " threads, so 1 to " << kMaxThreads / kWarpSize
           << " warps";
  int64_t numThreads = numWarps * kWarpSize;
  WalkResult tooBig = kernel.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto block = dyn_cast<BlockType>(type);
      if (!block)
        continue;
      int64_t perThread = getLayout(block, numThreads).numSlots();
      if (perThread <= kMaxRegisters)
        continue;
      op->emitError() << "block of " << block.getNumElements()
                      << " elements needs " << perThread
                      << " registers per thread at " << numThreads
                      << " threads, more than " << kMaxRegisters
                      << "; use smaller blocks or more warps";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(tooBig.wasInterrupted());
}
