//===- Compile.h - the whole compile, tile IR text to PTX/cubin -*- C++ -*-===//
//
// One library holds the pipeline: tile-opt's registered pipeline,
// tile-translate, the C API and the Python frontend all call it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_COMPILE_H
#define TILE_TARGET_COMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tile {

struct CompileOptions {
  /// The GPU to compile for, e.g. "sm_90" (or "sm_90a").
  std::string chip = "sm_90";
  /// Warps (of 32 threads) per program instance.
  unsigned numWarps = 4;
  /// CUDA toolkit: libdevice is linked from
  /// `<cudaToolkit>/nvvm/libdevice/libdevice.10.bc` and, unless `ptxas` or
  /// `nvJitLink` says otherwise, `<cudaToolkit>/bin/ptxas` assembles. Empty:
  /// $CUDA_HOME, else the path configured at build time.
  std::string cudaToolkit;
  /// A ptxas executable to assemble with (empty: the toolkit's, else PATH's).
  std::string ptxas;
  /// A libnvJitLink.so to assemble with in-process; wins over `ptxas`.
  std::string nvJitLink;
  /// Whether to assemble a cubin.
  bool emitCubin = true;
};

/// What one kernel needs to be launched.
struct KernelInfo {
  struct Param {
    std::string name;
    /// "ptr" or a scalar type name (i1, i8, i16, i32, i64, f16, bf16, f32,
    /// f64).
    std::string type;
    /// For pointers, the pointee type name.
    std::string pointee;
  };
  std::string name;
  unsigned numWarps = 4;
  unsigned threads = 128;
  unsigned sharedBytes = 0;
  std::vector<Param> params;
};

struct CompileResult {
  bool succeeded = false;
  /// Error text, each diagnostic as "file:line:col: error: message".
  std::string diagnostics;
  std::string llvmIR;
  std::string ptx;
  std::string cubin;
  std::vector<KernelInfo> kernels;
  std::string chip;
  /// Which assembler made the cubin ("ptxas (/path)", "nvJitLink 13.0
  /// (/path)"), and the libdevice file linked; empty when none was used.
  std::string assembler;
  std::string libdevice;
  /// The launch facts as JSON (see docs/launch-facts.md).
  std::string metadataJson() const;
};

/// Registers the dialects, interfaces and translations the pipeline needs,
/// and no others.
void registerPipelineDependencies(DialectRegistry &registry);

/// Registers the pipeline's dependencies and every upstream dialect,
/// extension and translation (for tools that read any MLIR).
void registerCompileDependencies(DialectRegistry &registry);

/// Adds the passes from tile IR to the NVVM/LLVM dialects, with an NVVM
/// target attached to the GPU module.
void buildTileToNVVMPipeline(OpPassManager &pm, StringRef chip,
                             unsigned numWarps);

/// Registers the `tile-to-nvvm` pipeline (options `chip`, `num-warps`).
void registerTilePipelines();

/// Compiles tile IR text: parse, verify, lower, serialize to PTX and, if
/// asked, a cubin.
CompileResult compileTileSource(StringRef source, StringRef bufferName,
                                const CompileOptions &options);

/// The CUDA toolkit that `options` selects.
std::string getCudaToolkitPath(const CompileOptions &options);

} // namespace mlir::tile

#endif // TILE_TARGET_COMPILE_H
