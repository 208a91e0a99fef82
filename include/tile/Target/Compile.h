//===- Compile.h - the whole compile, tile IR text to PTX/cubin -*- C++ -*-===//
//
// One library holds the pipeline: tile-opt's registered pipeline,
// tile-translate, the C API and the Python frontend all call it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_COMPILE_H
#define TILE_TARGET_COMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "tile/Dialect/Tile/IR/Chips.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tile {

struct CompileOptions {
  /// The GPU to compile for: one of getSupportedChips().
  std::string chip = "sm_90";
  /// Warps (of 32 threads) per program instance, a power of two to 32.
  unsigned numWarps = 4;
  /// Iterations of a loop whose dot operands are loaded in flight at once
  /// (Triton's num_stages); 1 loads each iteration's operands in it.
  unsigned numStages = 3;
  /// CUDA toolkit: libdevice is linked from
  /// `<cudaToolkit>/nvvm/libdevice/libdevice.10.bc` and, unless `ptxas` or
  /// `nvJitLink` says otherwise, `<cudaToolkit>/bin/ptxas` assembles. Empty:
  /// $CUDA_HOME, else the path configured at build time. A toolkit given
  /// here or in $CUDA_HOME must hold what is used from it; only the build
  /// default falls back to a ptxas on PATH (CompileResult::assembler says).
  std::string cudaToolkit;
  /// A libdevice bitcode file to link instead of the toolkit's (Triton's
  /// `extern_libs={"libdevice": path}`); it must exist.
  std::string libdevice;
  /// A ptxas executable to assemble with (empty: the toolkit's, else PATH's).
  std::string ptxas;
  /// A libnvJitLink.so to assemble with in-process; wins over `ptxas`.
  std::string nvJitLink;
  /// Whether to assemble a cubin.
  bool emitCubin = true;
  /// Whether the PTX and the cubin carry a line table of the source's
  /// locations (`.loc`, ptxas -lineinfo), as Triton's default
  /// (knobs.compilation.disable_line_info) has.
  bool lineInfo = true;
  /// Whether a float multiply feeding an add or subtract may fuse into one
  /// fma, as Triton's default (enable_fp_fusion) allows; off, each rounds
  /// (`mul.rn`, `add.rn`).
  bool fpFusion = true;
  /// Whether libdevice's functions flush subnormals to zero (its
  /// `__nvvm_reflect("__CUDA_FTZ")` answers 1: `ex2.approx.ftz.f32`,
  /// `sqrt.approx.ftz.f32`, ...), as Triton's default (enable_reflect_ftz)
  /// has. Operations tile emits itself are not affected.
  bool reflectFtz = true;
  /// The most registers a thread of a kernel may use (PTX `.maxnreg`, as
  /// Triton's maxnreg); 0 leaves the choice to the assembler.
  unsigned maxRegisters = 0;
  /// Whether, with no `maxRegisters`, registers are chosen per launch
  /// (chooseRegisters in lib/Target/Compile.cpp): a kernel whose registers
  /// keep blocks off its SMs is assembled again under the `.maxnreg` that
  /// lets more in, kept only if nothing spills (lib/Target/Occupancy.h),
  /// and once more for one block per SM (cubinWithoutLimit, for grids
  /// that fit at once).
  bool raiseOccupancy = true;
};

/// What one kernel needs to be launched.
struct KernelInfo {
  struct Param {
    std::string name;
    /// "ptr", "tensormap" (a CUtensorMap passed by value) or a scalar type
    /// name (i1, i8, i16, i32, i64, f16, bf16, f32, f64).
    std::string type;
    /// For pointers, the pointee type name.
    std::string pointee;
    /// For a tensor map the kernel copies from with TMA: the box it is
    /// encoded with (outermost dimension first), its swizzle in bytes (0,
    /// 32, 64 or 128) and the element size. Empty box: the kernel does not
    /// read the map.
    std::vector<int64_t> box;
    unsigned swizzle = 0;
    unsigned elementBytes = 0;
    /// For a tensor map made in the kernel (tile-launch-tensor-maps): how
    /// the launcher makes it from the other parameters. Such parameters
    /// come after those the arguments fill.
    std::optional<TensorMapRecipe> recipe;
  };
  std::string name;
  unsigned numWarps = 4;
  unsigned threads = 128;
  unsigned sharedBytes = 0;
  /// Whether it multiplies on the tensor cores (kTensorCoresAttrName).
  bool tensorCores = false;
  std::vector<Param> params;
  /// What the cubin says the kernel uses (0 when no cubin was made):
  /// registers per thread, and the bytes of its stack frame in local memory
  /// per thread (where registers spill).
  unsigned registers = 0;
  unsigned stackFrameBytes = 0;
  /// The `.maxnreg` the compile chose (0 if none): to raise occupancy, or
  /// the budget of a kernel with loads to overlap (chooseRegisters); where
  /// there is a CompileResult::cubinWithoutLimit, its registers and how
  /// many of its blocks one SM holds (0 where there is none): a grid of at
  /// most that many blocks per SM all fits at once, and runs that cubin.
  unsigned occupancyMaxRegisters = 0;
  unsigned registersWithoutLimit = 0;
  unsigned residentBlocksWithoutLimit = 0;
};

struct CompileResult {
  bool succeeded = false;
  /// Error text, each diagnostic as "file:line:col: error: message".
  std::string diagnostics;
  std::string llvmIR;
  std::string ptx;
  std::string cubin;
  /// The cubin for grids whose blocks all fit at once, where occupancy
  /// buys nothing and registers may: the kernel assembled for one block per
  /// SM (`.minnctapersm 1`) where that takes more registers than `cubin`
  /// and spills nothing, else the assembler's own cubin where the compile
  /// raised occupancy (`cubin` is then the one under `.maxnreg`); empty
  /// otherwise (chooseRegisters in lib/Target/Compile.cpp).
  std::string cubinWithoutLimit;
  std::vector<KernelInfo> kernels;
  std::string chip;
  /// Which assembler made the cubin ("ptxas (/path)", "nvJitLink 13.0
  /// (/path)"), and the libdevice file linked; empty when none was used.
  std::string assembler;
  std::string libdevice;
  /// The launch facts as JSON (README, "tile-translate"; the modules
  /// docstring of python/tile/driver/modules.py shows one).
  std::string metadataJson() const;
};

/// Where a driver writes CompileResult::cubinWithoutLimit beside the cubin
/// it writes to `cubinPath` (`k.cubin` -> `k.without-limit.cubin`), and where
/// tile.driver.load_module looks for it.
std::string getCubinWithoutLimitPath(llvm::StringRef cubinPath);

//===----------------------------------------------------------------------===//
// Options, checked in one place for every driver
//===----------------------------------------------------------------------===//

// The chips (getSupportedChips, checkChip): tile/Dialect/Tile/IR/Chips.h.

/// The message for a number of warps that is not a power of two from 1 to
/// 32, or nothing.
std::optional<std::string> checkNumWarps(int64_t numWarps);

/// The message for a register limit that is not 0 (none) or 1 to 255 (a
/// thread has at most 255), or nothing.
std::optional<std::string> checkMaxRegisters(int64_t maxRegisters);

/// The message for the first invalid option of `options`, or nothing.
std::optional<std::string> checkCompileOptions(const CompileOptions &options);

//===----------------------------------------------------------------------===//
// Input limits (docs/reliability.md)
//===----------------------------------------------------------------------===//

/// MLIR parses, verifies, prints and walks nested IR recursively, so input is
/// limited in nesting: brackets ( [ { < open at most this many levels deep.
/// (LLVM's loop passes take 1.6 s on 250 nested loops, 43 s on 990.)
constexpr unsigned kMaxNestingDepth = 256;

/// The stack the compile runs on (see runWithLargeStack): kMaxNestingDepth
/// levels through the whole pipeline take far less, with the sanitizers on
/// too; the rest is for long use-def chains, along which the axis analysis
/// recurses.
constexpr unsigned kCompileStackBytes = 256u << 20;

/// Checks that no bracket of the main buffer of `sourceMgr` opens more than
/// kMaxNestingDepth levels deep (strings and comments aside); otherwise
/// emits an error at the first one that does, through `context`'s handlers.
LogicalResult checkNestingDepth(const llvm::SourceMgr &sourceMgr,
                                MLIRContext *context);

/// Parses the main buffer of `sourceMgr` as a module after checkNestingDepth;
/// null (with diagnostics emitted) on error. Run it, and everything that walks
/// the result, inside runWithLargeStack.
OwningOpRef<ModuleOp> parseTileSource(const llvm::SourceMgr &sourceMgr,
                                      MLIRContext *context);

/// Runs `body` on a thread with a kCompileStackBytes stack and waits for it.
void runWithLargeStack(llvm::function_ref<void()> body);

//===----------------------------------------------------------------------===//
// The compile
//===----------------------------------------------------------------------===//

/// Registers the dialects, interfaces and translations the pipeline needs,
/// and no others.
void registerPipelineDependencies(DialectRegistry &registry);

/// Registers the pipeline's dependencies and every upstream dialect,
/// extension and translation (for tools that read any MLIR).
void registerCompileDependencies(DialectRegistry &registry);

/// Adds the passes from tile IR to the NVVM/LLVM dialects, with an NVVM
/// target attached to the GPU module. `options.chip` and `options.numWarps`
/// must pass checkChip and checkNumWarps.
void buildTileToNVVMPipeline(OpPassManager &pm, const CompileOptions &options);

/// Registers the `tile-to-nvvm` pipeline (options `chip`, `num-warps`,
/// `num-stages`, checked when the pipeline is built).
void registerTilePipelines();

/// Compiles tile IR text: check the options, parse, verify, lower, serialize
/// to PTX and, if asked, a cubin. Runs on its own large stack
/// (runWithLargeStack); never aborts on bad input or options: every failure
/// is diagnostics text in the result.
CompileResult compileTileSource(StringRef source, StringRef bufferName,
                                const CompileOptions &options);

/// The CUDA toolkit that `options` selects, and where the choice came from.
struct CudaToolkit {
  std::string path;
  /// "--cuda-path" (the option), "CUDA_HOME" or kBuildDefaultToolkit.
  std::string origin;
};
constexpr const char *kBuildDefaultToolkit = "the build default";
CudaToolkit getCudaToolkit(const CompileOptions &options);

/// getCudaToolkit(options).path.
std::string getCudaToolkitPath(const CompileOptions &options);

} // namespace mlir::tile

#endif // TILE_TARGET_COMPILE_H
