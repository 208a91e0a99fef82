//===- TileToGPU.cpp - lower tile kernels to gpu + nvvm -------------------===//
//
// The pass: one gpu.func per tile kernel, emitted by KernelEmitter
// (Emitter.h), after the resource limits are checked.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "tile/Conversion/TileToGPU/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "tile/Conversion/TileToGPU/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

/// Whether `kernel` multiplies on the tensor cores.
bool usesTensorCores(func::FuncOp kernel) {
  return kernel
      .walk([](Operation *op) {
        auto dot = dyn_cast<DotOp>(op);
        bool mma = dot && isa_and_nonnull<MmaLayoutAttr>(
                              cast<BlockType>(dot.getType()).getEncoding());
        return mma || isa<RingDotOp>(op) ? WalkResult::interrupt()
                                         : WalkResult::advance();
      })
      .wasInterrupted();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertTileToGPUPass
    : public tile::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  using ConvertTileToGPUBase::ConvertTileToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isPrivate())
        continue;
      kernels.push_back(func);
    }
    if (kernels.empty())
      return;
    if (std::optional<std::string> error = checkChip(chip)) {
      module.emitError() << "convert-tile-to-gpu: " << *error;
      return signalPassFailure();
    }
    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(builder, module.getLoc(), "tile_kernels");
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());

    int64_t maxShared = 0;
    for (func::FuncOp kernel : kernels) {
      if (failed(verifyKernelInterface(kernel)))
        return signalPassFailure();
      if (kernel.getNumResults() != 0) {
        kernel.emitError() << "kernel '" << kernel.getName()
                           << "' must not return values; store results "
                              "through pointers";
        return signalPassFailure();
      }
      auto numWarpsAttr = kernel->getAttrOfType<IntegerAttr>(kNumWarpsAttrName);
      if (!numWarpsAttr) {
        kernel.emitError() << "kernel '" << kernel.getName()
                           << "' has no layouts; run tile-assign-layouts first";
        return signalPassFailure();
      }
      int64_t numWarps = numWarpsAttr.getInt();
      if (failed(checkResourceLimits(kernel, numWarps)) ||
          failed(checkChipSupport(kernel, chip)))
        return signalPassFailure();
      // Pointers are global; a tensor map is the generic address of the
      // 128-byte parameter that holds it (byval, a __grid_constant__:
      // GridConstantParams after the conversion to LLVM).
      SmallVector<Type> argTypes =
          llvm::map_to_vector(kernel.getArgumentTypes(), convertScalarType);
      builder.setInsertionPointToEnd(gpuModule.getBody());
      auto gpuFunc =
          gpu::GPUFuncOp::create(builder, kernel.getLoc(), kernel.getName(),
                                 builder.getFunctionType(argTypes, {}));
      gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                       builder.getUnitAttr());
      SmallVector<int32_t> tensorMapArgs;
      for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes()))
        if (isa<TensorMapType>(type)) {
          tensorMapArgs.push_back(i);
          gpuFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                             builder.getI64IntegerAttr(64));
        }
      if (!tensorMapArgs.empty())
        gpuFunc->setAttr(kTensorMapArgsAttrName,
                         builder.getDenseI32ArrayAttr(tensorMapArgs));
      int32_t threads = numWarps * kWarpSize;
      gpuFunc.setKnownBlockSizeAttr(
          builder.getDenseI32ArrayAttr({threads, 1, 1}));
      AxisInfoAnalysis axisInfo(kernel);
      KernelEmitter emitter(kernel, gpuFunc, numWarps, axisInfo, fpFusion,
                            chip);
      if (failed(emitter.emit()))
        return signalPassFailure();
      int64_t shared = emitter.getSharedBytes();
      // Checked with the other options at the start of the pass.
      int64_t limit = *getMaxSharedBytes(chip);
      if (shared > limit) {
        kernel.emitError() << "kernel '" << kernel.getName() << "' needs "
                           << shared << " bytes of shared memory, more than "
                           << "the " << limit << " a block can have on " << chip
                           << "; use smaller tiles or fewer stages";
        return signalPassFailure();
      }
      maxShared = std::max(maxShared, shared);
      gpuFunc->setAttr(kNumWarpsAttrName, builder.getI32IntegerAttr(numWarps));
      gpuFunc->setAttr(kThreadsAttrName, builder.getI32IntegerAttr(threads));
      gpuFunc->setAttr(kSharedBytesAttrName, builder.getI32IntegerAttr(shared));
      if (ArrayAttr maps = emitter.getTensorMapFacts(); !maps.empty())
        gpuFunc->setAttr(kTensorMapsAttrName, maps);
      if (usesTensorCores(kernel))
        gpuFunc->setAttr(kTensorCoresAttrName, builder.getUnitAttr());
      // Argument attributes carry over: divisibility for documentation,
      // tensor map recipes for the launch facts.
      for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
        for (StringRef name : {StringRef("tile.divisibility"),
                               StringRef(kTensorMapRecipeAttrName)})
          if (Attribute attr = kernel.getArgAttr(i, name))
            gpuFunc.setArgAttr(i, name, attr);
    }
    if (maxShared > 0) {
      builder.setInsertionPointToStart(gpuModule.getBody());
      // Dynamic shared memory: an external array of no size, which the
      // launch sizes. Aligned for the tensor cores' swizzled tiles.
      auto arrayType = LLVM::LLVMArrayType::get(builder.getI8Type(), 0);
      LLVM::GlobalOp::create(builder, module.getLoc(), arrayType,
                             /*isConstant=*/false, LLVM::Linkage::External,
                             kSharedSymbol, Attribute(), /*alignment=*/1024,
                             /*addrSpace=*/3);
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      func.erase();
  }
};

} // namespace
