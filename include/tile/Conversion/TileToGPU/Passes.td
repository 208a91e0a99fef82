//===- Passes.td - tile conversion passes ------------------*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToGPU : Pass<"convert-tile-to-gpu", "ModuleOp"> {
  let summary = "Lower tile kernels to gpu.func kernels over NVVM, LLVM, arith, math and scf";
  let description = [{
    Needs layouts (`tile-assign-layouts`). Every public `func.func` becomes a
    kernel `gpu.func` in the `gpu.module @tile_kernels`, with
    `known_block_size = [32 * num_warps, 1, 1]`. Each block value becomes the
    per-thread registers its layout gives the thread; program ids become
    block ids; loads and stores become (predicated, vector) global accesses
    of the width the axis analysis proves safe; reductions combine in
    registers, then with warp shuffles, then through shared memory;
    broadcasts of values that are not functions of the indices, transposes,
    scans and `tile.dot` exchange data through shared memory.

    Each kernel's launch facts are attributes of its `gpu.func`:
    `tile.num_warps`, `tile.threads`, `tile.shared_bytes`. Shared memory is
    dynamic (`@tile_shared`, an external array): a launch asks for
    `tile.shared_bytes`, opting in beyond 48 KiB; more than `chip` allows a
    block (227 KiB on sm_90) is an error naming the kernel.

    A construct the pass cannot lower yet is an error naming it.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90\"",
           "Target GPU, for its shared-memory limit">,
    Option<"fpFusion", "fp-fusion", "bool", "true",
           "Let a float multiply feeding an add or subtract fuse into an fma "
           "(Triton's enable_fp_fusion)">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect"
  ];
}

#endif // TILE_CONVERSION_PASSES_TD
